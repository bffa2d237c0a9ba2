// The tensor map and the box (tma.hpp): the driver's rules as one table of checks, the box as arithmetic, and
// the grammar of the spec's words.
#include "families/tma/tma.hpp"

#include "lanemap/excerpt.hpp"
#include "lanemap/model.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <numeric>

namespace lanemap::tma {

std::string_view toString(Interleave value) {
    switch (value) {
    case Interleave::None:
        return "none";
    case Interleave::B16:
        return "16B";
    case Interleave::B32:
        return "32B";
    }
    return "none";
}

std::string_view toString(OobFill value) {
    return value == OobFill::Nan ? "nan" : "zero";
}

std::string_view toString(L2Promotion value) {
    switch (value) {
    case L2Promotion::None:
        return "none";
    case L2Promotion::B64:
        return "64B";
    case L2Promotion::B128:
        return "128B";
    case L2Promotion::B256:
        return "256B";
    }
    return "none";
}

int TensorMap::elementBytes() const {
    const int bits = traits(type).bits; // data bits: tf32 has 19 and takes 4 bytes
    return bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
}

int TensorMap::loaded(int i) const {
    const int stride = (i == 0 && interleave == Interleave::None) ? 1 : std::max(1, elementStrides[i]);
    return (box[i] + stride - 1) / stride;
}

std::int64_t TensorMap::boxBytes() const {
    std::int64_t n = elementBytes();
    for (int i = 0; i < rank; ++i)
        n *= loaded(i);
    return n;
}

int TensorMap::rowPitch() const {
    return swizzle == smem::Swizzle::None ? innerBytes()
                                          : std::max(innerBytes(), smem::swizzleBytes(swizzle));
}

std::int64_t TensorMap::footprintBytes() const {
    std::int64_t rows = 1;
    for (int i = 1; i < rank; ++i)
        rows *= loaded(i);
    return rows * rowPitch();
}

int TensorMap::clusterCtas() const {
    if (ctaMask == 0)
        return 1;
    if (cluster > 0)
        return cluster;
    int highest = 0;
    for (int r = 0; r < 16; ++r)
        if (ctaMask & (1u << r))
            highest = r;
    return highest + 1;
}

std::vector<int> TensorMap::receivers() const {
    std::vector<int> out;
    for (int r = 0; r < 16; ++r)
        if (ctaMask & (1u << r))
            out.push_back(r);
    return out;
}

int TensorMap::loads() const {
    return split ? static_cast<int>(receivers().size()) : 1;
}

TensorMap defaultMap(int rank) {
    TensorMap m;
    m.rank = rank;
    // Innermost first: 128 columns of f16 (256 bytes a row), 64 rows, then small outer dimensions.
    constexpr std::array<std::int64_t, kMaxRank> dims{128, 64, 4, 2, 2};
    constexpr std::array<int, kMaxRank> box{64, 8, 2, 2, 2};
    for (int i = 0; i < rank; ++i) {
        m.dims[static_cast<std::size_t>(i)] = dims[static_cast<std::size_t>(i)];
        m.box[static_cast<std::size_t>(i)] = rank == 1 ? 64 : box[static_cast<std::size_t>(i)];
    }
    m.strides[0] = m.elementBytes();
    for (int i = 1; i < rank; ++i)
        m.strides[static_cast<std::size_t>(i)] =
            m.strides[static_cast<std::size_t>(i - 1)] * m.dims[static_cast<std::size_t>(i - 1)];
    return m;
}

namespace {

std::string dimName(int i, int rank) {
    // Outermost first, as the grammar lists them: for 2-D "rows" (dimension 1) and "columns" (dimension 0).
    std::string s = "dimension " + std::to_string(i) + " (";
    if (i == 0)
        s += "innermost";
    else if (i == rank - 1)
        s += "outermost";
    else
        s += "middle";
    return s + ")";
}

} // namespace

std::string checkEncoding(const TensorMap& m) {
    const int eb = m.elementBytes();
    if (eb != 1 && eb != 2 && eb != 4 && eb != 8)
        return "element size " + std::to_string(eb) + " bytes: valid 1, 2, 4 or 8";
    if (m.rank < 1 || m.rank > kMaxRank)
        return "rank " + std::to_string(m.rank) + ": valid 1 to 5";
    if (m.interleave != Interleave::None && m.rank < 3)
        return "interleave " + std::string(toString(m.interleave)) +
               " needs rank 3 to 5; this map has rank " + std::to_string(m.rank);
    for (int i = 0; i < m.rank; ++i) {
        const auto u = static_cast<std::size_t>(i);
        if (m.dims[u] < 1 || m.dims[u] > (std::int64_t{1} << 32))
            return "tensor " + dimName(i, m.rank) + " is " + std::to_string(m.dims[u]) + ": valid 1 to 2^32";
        if (m.box[u] < 1 || m.box[u] > 256)
            return "box " + dimName(i, m.rank) + " is " + std::to_string(m.box[u]) + ": valid 1 to 256";
        if (m.elementStrides[u] < 1 || m.elementStrides[u] > 8)
            return "element stride of " + dimName(i, m.rank) + " is " + std::to_string(m.elementStrides[u]) +
                   ": valid 1 to 8";
        if (m.origin[u] < INT32_MIN || m.origin[u] > INT32_MAX)
            return "origin of " + dimName(i, m.rank) + " is " + std::to_string(m.origin[u]) +
                   ": a coordinate is a signed 32-bit integer";
        if (i >= 1) {
            const std::int64_t s = m.strides[u];
            const int align = m.interleave == Interleave::B32 ? 32 : 16;
            if (s <= 0 || s % align != 0 || s >= (std::int64_t{1} << 40))
                return "stride of " + dimName(i, m.rank) + " is " + std::to_string(s) +
                       " bytes: valid a multiple of " + std::to_string(align) + " below 2^40";
        }
    }
    if (m.interleave == Interleave::None && m.innerBytes() % 16 != 0)
        return "the box's inner extent is " + std::to_string(m.box[0]) + " elements x " + std::to_string(eb) +
               " bytes = " + std::to_string(m.innerBytes()) +
               " bytes: it must be a multiple of 16 bytes (e.g. box " +
               std::to_string(16 / std::gcd(16, eb)) + ", " + std::to_string(2 * 16 / std::gcd(16, eb)) +
               ", ... elements)";
    if (m.interleave == Interleave::B32 && m.swizzle != smem::Swizzle::B32)
        return "interleave 32B needs swizzle 32B; this map has swizzle " +
               std::string(smem::toString(m.swizzle));
    if (m.interleave == Interleave::None && m.swizzle != smem::Swizzle::None &&
        m.innerBytes() > smem::swizzleBytes(m.swizzle))
        return "swizzle " + std::string(smem::toString(m.swizzle)) + " spans " +
               std::to_string(smem::swizzleBytes(m.swizzle)) + " bytes, but the box's inner extent is " +
               std::to_string(m.innerBytes()) + " bytes: valid an inner extent of at most " +
               std::to_string(smem::swizzleBytes(m.swizzle)) + " bytes (box " +
               std::to_string(smem::swizzleBytes(m.swizzle) / eb) + " elements or fewer), or a wider swizzle";
    if (m.oob == OobFill::Nan && !traits(m.type).floating)
        return "oob=nan fills with a NaN, which needs a floating-point type; " +
               std::string(toString(m.type)) + " is not one (valid: oob=zero)";
    return {};
}

std::string checkLoad(const TensorMap& m) {
    // The GPU traps (cudaErrorIllegalInstruction) on a load whose innermost coordinate is not 16-byte
    // aligned, with or without a swizzle, negative too; the encoder cannot see the coordinates
    // (docs/tma.md#legality-study).
    if (const std::int64_t bytes = m.origin[0] * m.elementBytes(); bytes % 16 != 0) {
        const int step = 16 / std::gcd(16, m.elementBytes());
        const std::int64_t below = (m.origin[0] / step - (m.origin[0] % step < 0 ? 1 : 0)) * step;
        return "the load's innermost coordinate " + std::to_string(m.origin[0]) + " is " +
               std::to_string(bytes) +
               " bytes from the tensor's start, not a multiple of 16: the GPU traps with an illegal "
               "instruction "
               "(cuTensorMapEncodeTiled cannot see the coordinates; docs/tma.md#legality-study); valid: a "
               "multiple of " +
               std::to_string(step) + " elements, e.g. " + std::to_string(below) + " or " +
               std::to_string(below + step);
    }
    if (m.interleave != Interleave::None)
        return "interleaved layouts (interleave " + std::string(toString(m.interleave)) +
               ") are not modelled: lanemap draws the non-interleaved tiled mode (interleave=none)";
    return {};
}

int gridCols(const TensorMap& m) {
    return m.loaded(0);
}

int gridRows(const TensorMap& m) {
    int rows = 1;
    for (int i = 1; i < m.rank; ++i)
        rows *= m.loaded(i);
    return rows * m.loads();
}

std::string checkMulticast(const TensorMap& m) {
    if (m.split && m.ctaMask == 0)
        return "multicast=split needs cta-mask=MASK: the CTAs that each load one box and receive them all";
    if (m.ctaMask == 0) {
        if (m.cluster > 1)
            return "cluster=" + std::to_string(m.cluster) +
                   " without cta-mask=MASK: a load reaches other CTAs only through .multicast::cluster and "
                   "its "
                   "ctaMask";
        return {};
    }
    if (m.cluster < 0 || m.cluster > 16)
        return "cluster=" + std::to_string(m.cluster) +
               ": valid 1 to 16 CTAs (8 portable, 16 with cudaFuncAttributeNonPortableClusterSizeAllowed)";
    const int ctas = m.clusterCtas();
    if (ctas < 16 && (m.ctaMask >> ctas) != 0)
        return "cta-mask=0x" +
               [&] {
                   char buf[8];
                   std::snprintf(buf, sizeof buf, "%x", m.ctaMask);
                   return std::string(buf);
               }() +
               " names CTA " + std::to_string(m.receivers().back()) + " of a " + std::to_string(ctas) +
               "-CTA cluster: valid bits 0 to " + std::to_string(ctas - 1) + " (or a larger cluster=)";
    return {};
}

BoxWalk::BoxWalk(const TensorMap& map, std::uint32_t base)
    : m_map(map), m_base(base), m_elementBytes(map.elementBytes()),
      m_rowPitch(static_cast<std::uint32_t>(map.rowPitch())),
      m_left(static_cast<std::size_t>(map.boxBytes() / map.elementBytes())) {
    for (int i = 0; i < map.rank; ++i) {
        const auto u = static_cast<std::size_t>(i);
        m_loaded[u] = map.loaded(i);
        m_stride[u] = (i == 0 && map.interleave == Interleave::None) ? 1 : map.elementStrides[u];
    }
}

bool BoxWalk::next(BoxElement& e) {
    if (m_left == 0)
        return false;
    --m_left;
    e = BoxElement{};
    e.boxIndex = m_index;
    e.smemOffset = smem::swizzleAddress(
        m_base + m_row * m_rowPitch + static_cast<std::uint32_t>(m_index[0] * m_elementBytes), m_map.swizzle);
    std::int64_t offset = 0;
    for (int i = 0; i < m_map.rank; ++i) {
        const auto u = static_cast<std::size_t>(i);
        const std::int64_t g = m_map.origin[u] + static_cast<std::int64_t>(m_index[u]) * m_stride[u];
        if (g < 0 || g >= m_map.dims[u])
            e.fill = true;
        e.coord[u] = g;
        offset += g * (i == 0 ? m_elementBytes : m_map.strides[u]);
    }
    if (e.fill)
        e.coord = {};
    else
        e.globalOffset = offset;
    if (++m_index[0] == m_loaded[0]) { // innermost fastest; a new row of the box
        m_index[0] = 0;
        ++m_row;
        for (std::size_t u = 1; u < static_cast<std::size_t>(m_map.rank); ++u) {
            if (++m_index[u] < m_loaded[u])
                break;
            m_index[u] = 0;
        }
    }
    return true;
}

std::vector<BoxElement> boxElements(const TensorMap& m, std::uint32_t base) {
    std::vector<BoxElement> out;
    out.reserve(static_cast<std::size_t>(m.boxBytes() / m.elementBytes()));
    BoxWalk walk(m, base);
    for (BoxElement e; walk.next(e);)
        out.push_back(e);
    return out;
}

const TensorMap* tensorMapOf(const Params& params) {
    return params.family.get<TensorMap>();
}

// --- the grammar ------------------------------------------------------------------------------------------

namespace {

std::vector<std::string_view> splitOn(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    for (std::size_t start = 0;;) {
        const std::size_t at = s.find(sep, start);
        out.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos)
            return out;
        start = at + 1;
    }
}

std::optional<std::int64_t> number(std::string_view s) {
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    std::int64_t v = 0;
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, v);
    if (s.empty() || ec != std::errc() || p != end)
        return std::nullopt;
    return v;
}

// A list written outermost first ("128x192", "0,64"), returned innermost first; "" or what is wrong.
std::string readList(std::string_view key, std::string_view text, char sep, int rank,
                     std::array<std::int64_t, kMaxRank>& out, int count) {
    const std::vector<std::string_view> parts = splitOn(text, sep);
    if (static_cast<int>(parts.size()) != count)
        return std::string(key) + "=" + excerpt(text, 40) + " has " + std::to_string(parts.size()) +
               " value" + (parts.size() == 1 ? "" : "s") + "; a rank-" + std::to_string(rank) +
               " map needs " + std::to_string(count) + " (outermost first, separated by '" + sep + "')";
    for (int k = 0; k < count; ++k) {
        const std::optional<std::int64_t> v = number(parts[static_cast<std::size_t>(k)]);
        if (!v)
            return std::string(key) + ": '" + excerpt(parts[static_cast<std::size_t>(k)], 24) +
                   "' is not an integer";
        out[static_cast<std::size_t>(count - 1 - k)] = *v;
    }
    return {};
}

struct TypeName {
    std::string_view name;
    ElementType type;
};
constexpr TypeName kTypes[] = {
    {"u8", ElementType::U8},     {"b8", ElementType::U8},   {"s8", ElementType::S8},
    {"f16", ElementType::F16},   {"b16", ElementType::F16}, {"bf16", ElementType::BF16},
    {"f32", ElementType::F32},   {"b32", ElementType::F32}, {"s32", ElementType::S32},
    {"tf32", ElementType::TF32}, {"f64", ElementType::F64}, {"b64", ElementType::F64}};

} // namespace

std::string parseWords(std::string_view words, int rank, TensorMap& m,
                       std::optional<smem::Swizzle>& swizzle) {
    // Words: "key=value" or "--key value" / "--key=value", separated by blanks.
    std::vector<std::string> tokens;
    for (std::size_t i = 0; i < words.size();) {
        while (i < words.size() && (words[i] == ' ' || words[i] == '\t'))
            ++i;
        std::size_t j = i;
        while (j < words.size() && words[j] != ' ' && words[j] != '\t')
            ++j;
        if (j > i)
            tokens.emplace_back(words.substr(i, j - i));
        i = j;
    }
    m = defaultMap(rank);
    bool stridesGiven = false;
    // A pasted map (tensormap=HEX) gives every parameter the map holds; the words after it may change them.
    for (std::size_t t = 0; t < tokens.size(); ++t) {
        const std::string& tok = tokens[t];
        const std::size_t at = tok.find("tensormap");
        if (at != 0 && at != 2)
            continue;
        std::string value = tok.find('=') != std::string::npos ? tok.substr(tok.find('=') + 1)
                            : t + 1 < tokens.size()            ? tokens[t + 1]
                                                               : std::string();
        std::string error;
        const std::optional<std::array<std::uint8_t, 128>> bytes = parseTensorMapHex(value, error);
        std::optional<DecodedMap> decoded;
        if (bytes)
            decoded = decodeTensorMap(*bytes, error);
        if (!decoded)
            return "tensormap: " + error;
        if (decoded->map.rank != rank)
            return "tensormap: the map has rank " + std::to_string(decoded->map.rank) +
                   "; the opcode names rank " + std::to_string(rank);
        m = decoded->map;
        swizzle = m.swizzle;
        m.swizzle = smem::Swizzle::None;
        stridesGiven = true;
        tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(t),
                     tokens.begin() + static_cast<std::ptrdiff_t>(tok.find('=') != std::string::npos
                                                                      ? t + 1
                                                                      : std::min(t + 2, tokens.size())));
        break;
    }
    const std::string keys = "elem-bytes, type, tensor, strides, box, element-strides, origin, swizzle, "
                             "interleave, oob, l2, tensormap, cta-mask, cluster, multicast";
    for (std::size_t t = 0; t < tokens.size(); ++t) {
        std::string key = tokens[t], value;
        const bool dashed = key.rfind("--", 0) == 0;
        if (dashed)
            key = key.substr(2);
        if (const std::size_t eq = key.find('='); eq != std::string::npos) {
            value = key.substr(eq + 1);
            key = key.substr(0, eq);
        } else if (dashed && t + 1 < tokens.size()) {
            value = tokens[++t];
        } else {
            return "'" + excerpt(tokens[t], 32) + "' is not a parameter (write key=value; keys: " + keys +
                   ")";
        }
        std::array<std::int64_t, kMaxRank> list{};
        if (key == "elem-bytes" || key == "elem") {
            const std::optional<std::int64_t> v = number(value);
            if (!v || (*v != 1 && *v != 2 && *v != 4 && *v != 8))
                return "elem-bytes=" + excerpt(value, 24) + ": valid 1, 2, 4 or 8";
            m.type = *v == 1   ? ElementType::U8
                     : *v == 2 ? ElementType::F16
                     : *v == 4 ? ElementType::F32
                               : ElementType::F64;
        } else if (key == "type") {
            const auto it = std::find_if(std::begin(kTypes), std::end(kTypes),
                                         [&](const TypeName& n) { return n.name == value; });
            if (it == std::end(kTypes))
                return "type=" + excerpt(value, 24) +
                       ": valid u8, s8, b8, f16, bf16, b16, f32, tf32, s32, b32, f64, b64";
            m.type = it->type;
        } else if (key == "tensor") {
            if (std::string why = readList(key, value, 'x', rank, list, rank); !why.empty())
                return why;
            for (int i = 0; i < rank; ++i)
                m.dims[static_cast<std::size_t>(i)] = list[static_cast<std::size_t>(i)];
        } else if (key == "strides") {
            if (rank == 1)
                return "strides: a rank-1 map has no strides (the element size is the only one)";
            if (std::string why = readList(key, value, ',', rank, list, rank - 1); !why.empty())
                return why;
            for (int i = 1; i < rank; ++i)
                m.strides[static_cast<std::size_t>(i)] = list[static_cast<std::size_t>(i - 1)];
            stridesGiven = true;
        } else if (key == "box") {
            if (std::string why = readList(key, value, 'x', rank, list, rank); !why.empty())
                return why;
            for (int i = 0; i < rank; ++i)
                m.box[static_cast<std::size_t>(i)] =
                    static_cast<int>(std::clamp<std::int64_t>(list[static_cast<std::size_t>(i)], -1, 100000));
        } else if (key == "element-strides" || key == "estrides") {
            if (std::string why = readList(key, value, ',', rank, list, rank); !why.empty())
                return why;
            for (int i = 0; i < rank; ++i)
                m.elementStrides[static_cast<std::size_t>(i)] =
                    static_cast<int>(std::clamp<std::int64_t>(list[static_cast<std::size_t>(i)], -1, 100000));
        } else if (key == "origin" || key == "coords") {
            if (std::string why = readList(key, value, ',', rank, list, rank); !why.empty())
                return why;
            m.origin = list;
        } else if (key == "swizzle") {
            std::string v = value;
            if (v == "128b-32b" || v == "128b_atom_32b")
                swizzle = smem::Swizzle::B128Atom32;
            else if (v == "128b-64b" || v == "128b_atom_64b" || v == "128b-32b-flip-8b" ||
                     v == "128b_atom_32b_flip_8b")
                // cuda.h (12.8 on) describes them in one line each; no ISA section or probe run does.
                return "swizzle=" + excerpt(value, 24) + " (CU_TENSOR_MAP_SWIZZLE_128B_ATOM_" +
                       (v.find("64") != std::string::npos ? "64B" : "32B_FLIP_8B") +
                       ") is an sm_100 mode lanemap does not draw: the driver's header describes it in one "
                       "line "
                       "and no GPU here runs it; valid: none, 32B, 64B, 128B, 128B-32B (docs/tma.md#grammar)";
            else if (const std::optional<smem::Swizzle> s = smem::parseSwizzle(v))
                swizzle = *s;
            else
                return "swizzle=" + excerpt(value, 24) + ": valid none, 32B, 64B, 128B, 128B-32B";
        } else if (key == "interleave") {
            if (value == "none")
                m.interleave = Interleave::None;
            else if (value == "16b")
                m.interleave = Interleave::B16;
            else if (value == "32b")
                m.interleave = Interleave::B32;
            else
                return "interleave=" + excerpt(value, 24) + ": valid none, 16B, 32B";
        } else if (key == "oob") {
            if (value == "zero" || value == "none")
                m.oob = OobFill::Zero;
            else if (value == "nan")
                m.oob = OobFill::Nan;
            else
                return "oob=" + excerpt(value, 24) + ": valid zero, nan";
        } else if (key == "cta-mask" || key == "ctamask") {
            // 0x hex, 0b binary or decimal; the PTX operand is 16 bits.
            std::int64_t v = -1;
            std::string digits = value;
            int base = 10;
            if (digits.rfind("0x", 0) == 0)
                base = 16, digits = digits.substr(2);
            else if (digits.rfind("0b", 0) == 0)
                base = 2, digits = digits.substr(2);
            const char* end = digits.data() + digits.size();
            if (auto [p, ec] = std::from_chars(digits.data(), end, v, base);
                digits.empty() || ec != std::errc() || p != end)
                v = -1;
            if (v < 1 || v > 0xFFFF)
                return "cta-mask=" + excerpt(value, 24) +
                       ": valid a 16-bit mask naming at least one CTA, 0x1 to 0xffff (bit r: "
                       "%cluster_ctarank r)";
            m.ctaMask = static_cast<std::uint16_t>(v);
        } else if (key == "cluster") {
            const std::optional<std::int64_t> v = number(value);
            if (!v || *v < 1 || *v > 16)
                return "cluster=" + excerpt(value, 24) + ": valid 1 to 16 CTAs";
            m.cluster = static_cast<int>(*v);
        } else if (key == "multicast") {
            if (value == "box")
                m.split = false;
            else if (value == "split")
                m.split = true;
            else
                return "multicast=" + excerpt(value, 24) +
                       ": valid box (every CTA of the mask receives the box: the PTX instruction) or split "
                       "(CUTLASS's SM90_TMA_LOAD_MULTICAST: the mask's CTAs each load one box of the tile)";
        } else if (key == "l2") {
            const std::string_view names[] = {"none", "64b", "128b", "256b"};
            const auto it = std::find(std::begin(names), std::end(names), value);
            if (it == std::end(names))
                return "l2=" + excerpt(value, 24) + ": valid none, 64B, 128B, 256B";
            m.l2 = static_cast<L2Promotion>(it - std::begin(names));
        } else {
            return "unknown parameter '" + excerpt(key, 32) + "'; valid: " + keys;
        }
    }
    m.strides[0] = m.elementBytes();
    if (!stridesGiven) // packed: each dimension's stride covers the one inside it
        for (int i = 1; i < rank; ++i)
            m.strides[static_cast<std::size_t>(i)] =
                m.strides[static_cast<std::size_t>(i - 1)] * m.dims[static_cast<std::size_t>(i - 1)];
    return {};
}

// --- decoding
// -------------------------------------------------------------------------------------------------

std::optional<std::array<std::uint8_t, 128>> parseTensorMapHex(std::string_view text, std::string& error) {
    // Tokens of hex digits; "0x" prefixes and separators dropped.
    std::vector<std::string> tokens;
    std::string cur;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
        if (c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X') && cur.empty()) {
            ++i;
            continue;
        }
        if (std::isxdigit(static_cast<unsigned char>(c))) {
            cur += c;
        } else if (c == ' ' || c == ',' || c == ':' || c == '\t' || c == '\n' || c == '{' || c == '}') {
            if (!cur.empty())
                tokens.push_back(std::move(cur)), cur.clear();
        } else {
            error = "'" + excerpt(text.substr(i, 1)) + "' is not a hex digit";
            return std::nullopt;
        }
    }
    if (!cur.empty())
        tokens.push_back(cur);
    std::array<std::uint8_t, 128> bytes{};
    auto hexByte = [](std::string_view two) {
        return static_cast<std::uint8_t>(std::stoul(std::string(two), nullptr, 16));
    };
    if (tokens.size() == 16 && std::all_of(tokens.begin(), tokens.end(), [](const std::string& t) {
            return t.size() <= 16;
        })) { // 64-bit words, little-endian in memory
        for (std::size_t w = 0; w < 16; ++w) {
            const std::uint64_t v = std::stoull(tokens[w], nullptr, 16);
            for (std::size_t b = 0; b < 8; ++b)
                bytes[8 * w + b] = static_cast<std::uint8_t>(v >> (8 * b));
        }
        return bytes;
    }
    std::string digits;
    if (tokens.size() == 128 &&
        std::all_of(tokens.begin(), tokens.end(), [](const std::string& t) { return t.size() <= 2; })) {
        for (const std::string& t : tokens)
            digits += (t.size() == 1 ? "0" : "") + t;
    } else {
        for (const std::string& t : tokens)
            digits += t;
    }
    if (digits.size() != 256) {
        error = "a CUtensorMap is 128 bytes: 256 hex digits in memory order, 128 bytes, or 16 64-bit words; "
                "got " +
                std::to_string(digits.size()) + " digits in " + std::to_string(tokens.size()) + " groups";
        return std::nullopt;
    }
    for (std::size_t b = 0; b < 128; ++b)
        bytes[b] = hexByte(std::string_view(digits).substr(2 * b, 2));
    return bytes;
}

namespace {

std::uint32_t dword(const std::array<std::uint8_t, 128>& b, std::size_t i) {
    return static_cast<std::uint32_t>(b[4 * i]) | static_cast<std::uint32_t>(b[4 * i + 1]) << 8 |
           static_cast<std::uint32_t>(b[4 * i + 2]) << 16 | static_cast<std::uint32_t>(b[4 * i + 3]) << 24;
}

// The type code at bits [11:7] of bytes 8..11, as the recorded maps have it (not the driver's enum).
struct TypeCode {
    unsigned code;
    ElementType type;
};
constexpr TypeCode kTypeCodes[] = {{0, ElementType::U8},  {3, ElementType::S32}, {6, ElementType::F16},
                                   {7, ElementType::F32}, {9, ElementType::F64}, {10, ElementType::BF16}};

} // namespace

std::optional<DecodedMap> decodeTensorMap(const std::array<std::uint8_t, 128>& b, std::string& error) {
    DecodedMap d;
    TensorMap& m = d.map;
    for (std::size_t i = 0; i < 8; ++i)
        d.address |= static_cast<std::uint64_t>(b[i]) << (8 * i);
    const std::uint32_t flags = dword(b, 2);
    m.rank = static_cast<int>((flags >> 4) & 7u) + 1;
    if (m.rank > kMaxRank) {
        error =
            "rank field " + std::to_string(m.rank) + " (bits 6..4 of byte 8): a tiled map has rank 1 to 5";
        return std::nullopt;
    }
    const unsigned code = (flags >> 7) & 31u;
    const bool tf32 = (flags >> 16) & 1u;
    const auto type = std::find_if(std::begin(kTypeCodes), std::end(kTypeCodes),
                                   [&](const TypeCode& t) { return t.code == code; });
    if (type == std::end(kTypeCodes)) {
        error =
            "type code " + std::to_string(code) +
            " (bits 11..7 of byte 8) is none the recorded maps have (u8 0, s32 3, f16 6, f32 7, f64 9, bf16 "
            "10; docs/tma.md#decoding-a-tensor-map)";
        return std::nullopt;
    }
    m.type = tf32 && type->type == ElementType::F32 ? ElementType::TF32 : type->type;
    m.interleave = (flags >> 12) & 1u ? Interleave::B32 : Interleave::None;
    constexpr smem::Swizzle swizzles[] = {smem::Swizzle::None, smem::Swizzle::B32, smem::Swizzle::B64,
                                          smem::Swizzle::B128};
    m.swizzle = swizzles[(flags >> 13) & 3u];
    m.oob = (flags >> 15) & 1u ? OobFill::Nan : OobFill::Zero;
    m.l2 = static_cast<L2Promotion>((flags >> 17) & 3u);
    if (const std::uint32_t rest = flags & ~0x7ffffu; rest)
        d.unknown.push_back("bits of bytes 8..11 no recorded map set: " + std::to_string(rest));
    m.strides[0] = m.elementBytes();
    for (int i = 1; i < m.rank; ++i) // bytes 12.. : globalStrides / 16
        m.strides[static_cast<std::size_t>(i)] = std::int64_t{dword(b, static_cast<std::size_t>(2 + i))} * 16;
    for (int i = 0; i < m.rank; ++i) // bytes 32.. : globalDim - 1
        m.dims[static_cast<std::size_t>(i)] = std::int64_t{dword(b, static_cast<std::size_t>(8 + i))} + 1;
    const std::uint32_t boxWord = dword(b, 13); // bits 31..24: boxDim[0] - 1; 3-bit elementStrides - 1
    m.box[0] = static_cast<int>(boxWord >> 24) + 1;
    for (int i = 0; i < m.rank; ++i)
        m.elementStrides[static_cast<std::size_t>(i)] = static_cast<int>((boxWord >> (3 * i)) & 7u) + 1;
    for (int i = 1; i < m.rank; ++i) // bytes 56..59: boxDim[i] - 1, one byte each
        m.box[static_cast<std::size_t>(i)] = b[56 + static_cast<std::size_t>(i - 1)] + 1;
    return d;
}

namespace {
template <typename T>
std::string outermostFirst(const std::array<T, kMaxRank>& a, int from, int rank, char sep) {
    std::string s;
    for (int i = rank - 1; i >= from; --i)
        s += std::to_string(a[static_cast<std::size_t>(i)]) + (i > from ? std::string(1, sep) : "");
    return s;
}
} // namespace

std::vector<SpecWord> wordsOf(const TensorMap& m) {
    std::vector<SpecWord> out;
    out.push_back({"type", std::string(toString(m.type))});
    out.push_back({"tensor", outermostFirst(m.dims, 0, m.rank, 'x')});
    if (m.rank > 1)
        out.push_back({"strides", outermostFirst(m.strides, 1, m.rank, ',')});
    out.push_back({"box", outermostFirst(m.box, 0, m.rank, 'x')});
    out.push_back({"element-strides", outermostFirst(m.elementStrides, 0, m.rank, ','),
                   std::all_of(m.elementStrides.begin(), m.elementStrides.begin() + m.rank,
                               [](int e) { return e == 1; })});
    out.push_back({"origin", outermostFirst(m.origin, 0, m.rank, ',')});
    out.push_back({"swizzle", std::string(smem::toString(m.swizzle))});
    out.push_back({"oob", std::string(toString(m.oob)), m.oob == OobFill::Zero});
    out.push_back({"interleave", std::string(toString(m.interleave)), m.interleave == Interleave::None});
    out.push_back({"l2", std::string(toString(m.l2)), m.l2 == L2Promotion::None});
    if (m.ctaMask != 0) {
        char mask[8];
        std::snprintf(mask, sizeof mask, "%x", m.ctaMask);
        out.push_back({"cta-mask", "0x" + std::string(mask)});
        out.push_back({"cluster", std::to_string(m.clusterCtas())});
        if (m.split)
            out.push_back({"multicast", "split"});
    }
    return out;
}

std::string specText(const TensorMap& m) {
    std::string s = "cp.async.bulk.tensor." + std::to_string(m.rank) + "d";
    for (const SpecWord& w : wordsOf(m))
        if (!w.atDefault)
            s += " " + w.key + "=" + w.value;
    return s;
}

} // namespace lanemap::tma
