// wgmma shared-memory layouts and the matrix descriptor: PTX 9.1 §9.7.15.5.1.2 as arithmetic.
#include "lanemap/smem.hpp"

#include "io/field_number.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/model.hpp"

#include "families/atom/atom.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace lanemap::smem {

namespace {

constexpr std::uint32_t kAddressSpace = 1u << 18; // the descriptor encodes 18-bit byte addresses

struct SwizzleInfo {
    Swizzle swizzle;
    std::string_view name;
    int bits;     // B of Swizzle<B,M,S>
    int base;     // M: the swizzled chunk is 2^M bytes
    int shift;    // S: the XOR source sits S bits above the chunk bits
    int rowBytes; // one swizzled row
    int rows;     // rows per atom along the strided index
    int code;     // wgmma descriptor bits 63-62; -1: no wgmma encoding
};
// 128B-32B: PTX Table 55 gives its atom as 8x4 128-bit elements (MN x K); the XOR is CUTLASS's Swizzle<2,5,2>
// (Layout_MN_SW128_32B_Atom), the ISA showing it only as Figure 219.
constexpr std::array kSwizzles{SwizzleInfo{Swizzle::None, "none", 0, 4, 3, 16, 8, 0},
                               SwizzleInfo{Swizzle::B32, "32B", 1, 4, 3, 32, 8, 3},
                               SwizzleInfo{Swizzle::B64, "64B", 2, 4, 3, 64, 8, 2},
                               SwizzleInfo{Swizzle::B128, "128B", 3, 4, 3, 128, 8, 1},
                               SwizzleInfo{Swizzle::B128Atom32, "128B-32B", 2, 5, 2, 128, 4, -1}};

const SwizzleInfo& info(Swizzle s) {
    for (const SwizzleInfo& i : kSwizzles)
        if (i.swizzle == s)
            return i;
    return kSwizzles[0];
}

std::string lower(std::string_view text) {
    std::string s(text);
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string hexShort(std::uint64_t v) {
    std::ostringstream s;
    s << std::hex << v;
    return s.str();
}

} // namespace

std::string_view toString(Major major) {
    return major == Major::K ? "K" : "MN";
}
std::string_view toString(Swizzle swizzle) {
    return info(swizzle).name;
}
std::string_view majorList() {
    return "K, MN";
}
std::string_view swizzleList() {
    return "none, 32B, 64B, 128B";
}

std::optional<Major> parseMajor(std::string_view text) {
    const std::string s = lower(text);
    if (s == "k")
        return Major::K;
    if (s == "mn" || s == "m" || s == "n")
        return Major::MN;
    return std::nullopt;
}

std::optional<Swizzle> parseSwizzle(std::string_view text) {
    const std::string s = lower(text);
    if (s == "none" || s == "interleave" || s == "0")
        return Swizzle::None;
    if (s == "32b" || s == "32")
        return Swizzle::B32;
    if (s == "64b" || s == "64")
        return Swizzle::B64;
    if (s == "128b" || s == "128")
        return Swizzle::B128;
    return std::nullopt;
}

int swizzleBits(Swizzle swizzle) {
    return info(swizzle).bits;
}
int swizzleBase(Swizzle swizzle) {
    return info(swizzle).base;
}
int swizzleShift(Swizzle swizzle) {
    return info(swizzle).shift;
}
int atomRows(Swizzle swizzle) {
    return info(swizzle).rows;
}
int swizzleBytes(Swizzle swizzle) {
    return info(swizzle).rowBytes;
}
int repeatBytes(Swizzle swizzle) {
    return info(swizzle).rowBytes * info(swizzle).rows;
}
int descriptorSwizzleCode(Swizzle swizzle) {
    return info(swizzle).code;
}

std::uint32_t swizzleAddress(std::uint32_t address, Swizzle swizzle) {
    const SwizzleInfo& i = info(swizzle);
    const std::uint32_t mask = ((1u << i.bits) - 1u) << i.base;
    return address ^ ((address >> i.shift) & mask);
}

std::string hex(std::uint64_t value) {
    return "0x" + hexShort(value);
}

// --- descriptor ----------------------------------------------------------------------------------------

namespace {
constexpr std::uint64_t kFieldMask = 0x3FFF;
constexpr std::uint64_t kUsedBits =
    kFieldMask | (kFieldMask << 16) | (kFieldMask << 32) | (0x7ull << 49) | (0x3ull << 62);

void checkField(std::vector<DescriptorRule>& out, std::string_view name, std::uint32_t bytes) {
    if (bytes % 16 != 0 || bytes >= kAddressSpace)
        out.push_back({std::string(name), std::to_string(bytes) +
                                              " bytes cannot be encoded: it must be a multiple of 16 below "
                                              "262144 (matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4)"});
}

} // namespace

std::vector<DescriptorRule> checkDescriptor(const MatrixDescriptor& d) {
    std::vector<DescriptorRule> out;
    checkField(out, "start address", d.startAddress);
    checkField(out, "leading byte offset", d.leadingByteOffset);
    checkField(out, "stride byte offset", d.strideByteOffset);
    if (d.baseOffset < 0 || d.baseOffset > 7)
        out.push_back(
            {"base offset", std::to_string(d.baseOffset) + " does not fit bits 51-49; valid: 0..7"});
    if (descriptorSwizzleCode(d.swizzle) < 0)
        out.push_back(
            {"swizzle", std::string(toString(d.swizzle)) +
                            " exists only in the tcgen05 descriptor; wgmma: " + std::string(swizzleList())});
    return out;
}

std::uint64_t encodeDescriptor(const MatrixDescriptor& d) {
    if (const std::vector<DescriptorRule> broken = checkDescriptor(d); !broken.empty())
        throw std::invalid_argument("matrix descriptor: " + broken.front().field + ": " +
                                    broken.front().rule);
    return descriptorEncode(d.startAddress) | (descriptorEncode(d.leadingByteOffset) << 16) |
           (descriptorEncode(d.strideByteOffset) << 32) | (static_cast<std::uint64_t>(d.baseOffset) << 49) |
           (static_cast<std::uint64_t>(descriptorSwizzleCode(d.swizzle)) << 62);
}

std::string_view descriptorKeyList() {
    return "start, lbo, sbo, base, swizzle";
}

MatrixDescriptor parseDescriptorFields(std::string_view text) {
    MatrixDescriptor d;
    detail::forEachKeyValue(text, descriptorKeyList(), [&](const std::string& key, const std::string& value) {
        if (detail::takeAddressField(d, key, value))
            return;
        if (key != "swizzle")
            throw std::invalid_argument("unknown key '" + excerpt(key, 32) +
                                        "'; keys: " + std::string(descriptorKeyList()));
        const std::optional<Swizzle> s = parseSwizzle(value);
        if (!s)
            throw std::invalid_argument("swizzle '" + excerpt(value, 32) +
                                        "' is unknown; valid: " + std::string(swizzleList()));
        d.swizzle = *s;
    });
    return d;
}

MatrixDescriptor decodeDescriptor(std::uint64_t bits) {
    if (bits & ~kUsedBits)
        throw std::invalid_argument("matrix descriptor " + hex(bits) + " sets reserved bits " +
                                    hex(bits & ~kUsedBits) +
                                    "; the fields are bits 13-0, 29-16, 45-32, 51-49 and 63-62");
    MatrixDescriptor d;
    d.startAddress = static_cast<std::uint32_t>((bits & kFieldMask) << 4);
    d.leadingByteOffset = static_cast<std::uint32_t>(((bits >> 16) & kFieldMask) << 4);
    d.strideByteOffset = static_cast<std::uint32_t>(((bits >> 32) & kFieldMask) << 4);
    d.baseOffset = static_cast<int>((bits >> 49) & 0x7);
    const int code = static_cast<int>(bits >> 62);
    for (const SwizzleInfo& i : kSwizzles)
        if (i.code == code)
            d.swizzle = i.swizzle;
    return d;
}

std::string describe(const MatrixDescriptor& d) {
    std::ostringstream s;
    s << hex(encodeDescriptor(d)) << ": start " << hex(d.startAddress) << " (encoded "
      << descriptorEncode(d.startAddress) << "), LBO " << d.leadingByteOffset << " B (encoded "
      << descriptorEncode(d.leadingByteOffset) << "), SBO " << d.strideByteOffset << " B (encoded "
      << descriptorEncode(d.strideByteOffset) << "), base offset " << d.baseOffset << ", swizzle "
      << descriptorSwizzleCode(d.swizzle) << " (" << toString(d.swizzle) << ")";
    return s.str();
}

std::vector<DescriptorField> descriptorFields(std::uint64_t bits, std::vector<std::string>* broken) {
    const MatrixDescriptor d = decodeDescriptor(bits & kUsedBits); // the reserved bits are listed below
    auto raw = [bits](int low, int high) { return (bits >> low) & ((1ull << (high - low + 1)) - 1); };
    auto bytes = [](std::uint32_t b) {
        return std::to_string(b) + " bytes (" + hex(b) + ", encoded " + std::to_string(b >> 4) + ")";
    };
    std::vector<DescriptorField> fields = {
        {"start address", 0, 13, raw(0, 13), bytes(d.startAddress)},
        {"reserved", 14, 15, raw(14, 15), "must be 0"},
        {"leading byte offset", 16, 29, raw(16, 29), bytes(d.leadingByteOffset)},
        {"reserved", 30, 31, raw(30, 31), "must be 0"},
        {"stride byte offset", 32, 45, raw(32, 45), bytes(d.strideByteOffset)},
        {"reserved", 46, 48, raw(46, 48), "must be 0"},
        {"base offset", 49, 51, raw(49, 51),
         d.baseOffset == 0 ? "0: the swizzle pattern starts on its repeat boundary"
                           : std::to_string(d.baseOffset) + ": (pattern start address >> 7) & 7"},
        {"reserved", 52, 61, raw(52, 61), "must be 0"},
        {"swizzle", 62, 63, raw(62, 63),
         std::to_string(descriptorSwizzleCode(d.swizzle)) + ": " + std::string(toString(d.swizzle))},
    };
    if (broken)
        for (const DescriptorField& f : fields)
            if (f.name == "reserved" && f.raw != 0)
                broken->push_back("bits [" + std::to_string(f.highBit) + ".." + std::to_string(f.lowBit) +
                                  "] are reserved and must be 0");
    return fields;
}

int baseOffsetFor(std::uint32_t patternStart, Swizzle swizzle) {
    if (swizzle == Swizzle::None)
        return 0; // "valid for all swizzling modes except the no-swizzle mode"
    if (patternStart % static_cast<std::uint32_t>(repeatBytes(swizzle)) == 0)
        return 0;
    return static_cast<int>((patternStart >> 7) & 0x7); // base offset = (pattern start addr >> 0x7) & 0x7
}

// --- layouts -------------------------------------------------------------------------------------------

SmemLayout SmemLayout::make(int elementBits, int rows, int cols, Major major, Swizzle swizzle,
                            std::uint32_t startAddress) {
    auto fail = [&](const std::string& why) {
        std::ostringstream s;
        s << "shared-memory layout " << rows << " (MN) x " << cols << " (K) of " << elementBits
          << "-bit elements, " << toString(major) << "-major, " << toString(swizzle) << " swizzle: " << why;
        throw std::invalid_argument(s.str());
    };
    static constexpr std::array kBits{1, 2, 4, 8, 16, 32, 64};
    if (std::find(kBits.begin(), kBits.end(), elementBits) == kBits.end())
        fail("element bits must be one of 1, 2, 4, 8, 16, 32, 64");
    if (rows <= 0 || cols <= 0)
        fail("rows and cols must be positive");
    if (startAddress % 16 != 0)
        fail("the start address " + hex(startAddress) + " is not 16-byte aligned");

    SmemLayout l;
    l.m_elementBits = elementBits;
    l.m_rows = rows;
    l.m_cols = cols;
    l.m_major = major;
    l.m_swizzle = swizzle;
    l.m_start = startAddress;
    const int s = swizzleBytes(swizzle) / 16; // 16-byte units per swizzled row (1 without swizzle)
    const int atomRowCount = atomRows(swizzle);
    const std::uint32_t atom = static_cast<std::uint32_t>(atomRowCount * 16 * s); // rows of 16 s bytes
    if (swizzle == Swizzle::B128Atom32 && major == Major::K)
        fail("128B swizzling with 32B atomicity is MN-major only (PTX Table 55 has no K-major atom)");
    if (major == Major::K) {
        if (rows % 8 != 0)
            fail("K-major tiles are made of 8-row core matrices: rows must be a multiple of 8");
        if ((cols * elementBits) % 128 != 0)
            fail("a row of K must be a whole number of 16-byte units");
        const int kUnits = cols * elementBits / 128;
        l.m_mnAtoms = rows / 8;
        l.m_kAtoms = (kUnits + s - 1) / s;
    } else {
        if ((rows * elementBits) % 128 != 0)
            fail("a column of MN must be a whole number of 16-byte units");
        if (cols % atomRowCount != 0)
            fail("MN-major tiles are made of " + std::to_string(atomRowCount) +
                 "-k atoms: cols must be a multiple of " + std::to_string(atomRowCount));
        const int mnUnits = rows * elementBits / 128;
        l.m_mnAtoms = (mnUnits + s - 1) / s;
        l.m_kAtoms = cols / atomRowCount;
    }
    // Canonical packing: atoms adjacent along MN are contiguous, then the next K atom.
    l.m_mnAtomStride = atom;
    l.m_kAtomStride = static_cast<std::uint32_t>(l.m_mnAtoms) * atom;
    if (major == Major::MN && swizzle != Swizzle::None) {
        // MN-major swizzled: LBO steps between atoms along MN, SBO between groups of 8 k.
        l.m_lbo = l.m_mnAtomStride;
        l.m_sbo = l.m_kAtomStride;
    } else {
        // K-major (all modes) and MN-major without swizzle: SBO steps along MN, LBO along K.
        l.m_sbo = l.m_mnAtomStride;
        l.m_lbo = l.m_kAtomStride;
        if (major == Major::K && swizzle != Swizzle::None && l.m_kAtoms == 1) {
            l.m_lbo = 16; // "not used, assumed to be 1" (encoded)
            l.m_lboUsed = false;
        }
    }
    if (static_cast<std::uint64_t>(startAddress) + l.footprintBytes() > kAddressSpace)
        fail("the tile ends beyond the 256 KiB the descriptor can address");
    return l;
}

std::uint32_t SmemLayout::footprintBytes() const {
    return static_cast<std::uint32_t>(m_kAtoms) * m_kAtomStride;
}

MatrixDescriptor SmemLayout::descriptor() const {
    return MatrixDescriptor{m_start, m_lbo, m_sbo, baseOffset(), m_swizzle};
}

Placement SmemLayout::placement(int mn, int k) const {
    if (mn < 0 || mn >= m_rows || k < 0 || k >= m_cols)
        throw std::out_of_range("element (" + std::to_string(mn) + ", " + std::to_string(k) +
                                ") outside the " + std::to_string(m_rows) + " x " + std::to_string(m_cols) +
                                " tile");
    const int s = swizzleBytes(m_swizzle) / 16;
    // The contiguous index (K for K-major, MN for MN-major) splits into 16-byte units; the other into rows of
    // the atom (8 per atom) — the same arithmetic with the roles swapped.
    const int contiguous = m_major == Major::K ? k : mn;
    const int strided = m_major == Major::K ? mn : k;
    const int bitInLine = contiguous * m_elementBits;
    const int unit = bitInLine / 128;
    const int bitInUnit = bitInLine % 128;
    const int unitAtom = unit / s, unitInAtom = unit % s;
    const int rowsPerAtom = atomRows(m_swizzle);
    const int row = strided % rowsPerAtom, rowAtom = strided / rowsPerAtom;
    const std::uint32_t contiguousAtomStride = m_major == Major::K ? m_kAtomStride : m_mnAtomStride;
    const std::uint32_t stridedAtomStride = m_major == Major::K ? m_mnAtomStride : m_kAtomStride;
    const std::uint32_t offset = static_cast<std::uint32_t>(row * 16 * s + unitInAtom * 16 + bitInUnit / 8) +
                                 static_cast<std::uint32_t>(unitAtom) * contiguousAtomStride +
                                 static_cast<std::uint32_t>(rowAtom) * stridedAtomStride;
    Placement p;
    p.mn = mn;
    p.k = k;
    p.linear = m_start + offset;
    p.address = swizzleAddress(p.linear, m_swizzle);
    p.bit = bitInUnit % 8;
    const std::uint32_t mask = (1u << swizzleBits(m_swizzle)) - 1u;
    const int base = swizzleBase(m_swizzle);
    p.chunkBefore = static_cast<int>((p.linear >> base) & mask);
    p.xorValue = static_cast<int>((p.linear >> (base + swizzleShift(m_swizzle))) & mask);
    p.chunkAfter = p.chunkBefore ^ p.xorValue;
    return p;
}

std::optional<Coord> SmemLayout::elementAt(std::uint32_t address, int bit) const {
    if (bit < 0 || bit > 7)
        return std::nullopt;
    const std::uint32_t linear = swizzleAddress(address, m_swizzle); // the XOR is its own inverse
    if (linear < m_start || linear - m_start >= footprintBytes())
        return std::nullopt;
    const std::uint32_t offset = linear - m_start;
    const int s = swizzleBytes(m_swizzle) / 16;
    const int rowsPerAtom = atomRows(m_swizzle);
    const std::uint32_t atom = static_cast<std::uint32_t>(rowsPerAtom * 16 * s);
    const int atomIndex = static_cast<int>(offset / atom);
    const int within = static_cast<int>(offset % atom);
    const int mnAtom = atomIndex % m_mnAtoms, kAtom = atomIndex / m_mnAtoms;
    const int row = within / (16 * s);
    const int unitInAtom = (within % (16 * s)) / 16;
    const int bitInUnit = (within % 16) * 8 + bit;
    const int contiguousAtom = m_major == Major::K ? kAtom : mnAtom;
    const int stridedAtom = m_major == Major::K ? mnAtom : kAtom;
    const int contiguousBit = (contiguousAtom * s + unitInAtom) * 128 + bitInUnit;
    const int contiguous = contiguousBit / m_elementBits;
    const int strided = stridedAtom * rowsPerAtom + row;
    const Coord c = m_major == Major::K ? Coord{strided, contiguous} : Coord{contiguous, strided};
    if (c.mn >= m_rows || c.k >= m_cols)
        return std::nullopt; // padding of a partial atom
    return c;
}

namespace {
std::string tuple(std::initializer_list<std::string> items) {
    std::string s = "(";
    for (const std::string& i : items)
        s += (s.size() > 1 ? "," : "") + i;
    return s + ")";
}
std::string str(std::uint64_t v) {
    return std::to_string(v);
}
} // namespace

std::string SmemLayout::swizzleRule() const {
    const int b = swizzleBits(m_swizzle);
    const int base = swizzleBase(m_swizzle), shift = swizzleShift(m_swizzle);
    std::ostringstream s;
    s << "Swizzle<" << b << "," << base << "," << shift << ">";
    if (b == 0) {
        s << ": identity (no XOR); core matrices are 8 rows of 16 contiguous bytes";
        return s.str();
    }
    auto range = [](int lo, int n) {
        return n == 1 ? "[" + std::to_string(lo) + "]"
                      : "[" + std::to_string(lo + n - 1) + ".." + std::to_string(lo) + "]";
    };
    s << ": byte address bits " << range(base, b) << " ^= bits " << range(base + shift, b) << " (the "
      << (1 << base) << "-byte chunk inside a " << swizzleBytes(m_swizzle)
      << "-byte row is XORed with the 128-byte row index mod " << (1 << b) << "); the pattern repeats every "
      << repeatBytes(m_swizzle) << " bytes";
    return s.str();
}

std::string SmemLayout::canonicalFormula() const {
    const int s = swizzleBytes(m_swizzle) / 16;
    const std::string sw = "Swizzle<" + std::to_string(swizzleBits(m_swizzle)) + "," +
                           std::to_string(swizzleBase(m_swizzle)) + "," +
                           std::to_string(swizzleShift(m_swizzle)) + "> o ";
    const std::string kRows = std::to_string(atomRows(m_swizzle));
    const std::string sT = std::to_string(s) + "T";
    std::ostringstream f;
    const int T = elementsPerUnit();
    if (m_major == Major::K) {
        const int kUnits = m_cols * m_elementBits / 128;
        if (m_swizzle == Swizzle::None)
            f << sw << "((8,m),(T,2k)):((1T,SBO),(1,LBO))";
        else
            f << sw << "((8,m),(T,2k)):((" << sT << ",SBO),(1,T))";
        f << " with T = " << T << ", m = " << m_rows / 8 << ", 2k = " << kUnits << ", SBO = " << m_sbo
          << " B";
        if (m_swizzle == Swizzle::None)
            f << ", LBO = " << m_lbo << " B";
        else if (m_kAtoms > 1)
            f << "; K spans " << m_kAtoms << " swizzle atoms placed LBO = " << m_lbo
              << " B apart (inferred: the ISA form covers one atom of K and says LBO is unused)";
        else
            f << ", LBO unused (encoded 1)";
    } else {
        const int mnUnits = m_rows * m_elementBits / 128;
        if (m_swizzle == Swizzle::None)
            f << sw << "((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)) with T = " << T << ", m = " << mnUnits;
        else
            f << sw << "((T," << s << ",m),(" << kRows << ",k)):((1,T,LBO),(" << sT << ",SBO)) with T = " << T
              << ", m = " << m_mnAtoms;
        f << ", k = " << m_cols / atomRows(m_swizzle) << ", LBO = " << m_lbo << " B, SBO = " << m_sbo << " B";
    }
    return f.str();
}

std::string SmemLayout::exactLayout() const {
    const int s = swizzleBytes(m_swizzle) / 16;
    const int T = elementsPerUnit();
    auto el = [&](std::uint32_t bytes) {
        return str(static_cast<std::uint64_t>(bytes) * 8 / static_cast<std::uint64_t>(m_elementBits));
    };
    std::string shape, stride;
    if (m_major == Major::K) {
        const int kUnits = m_cols * m_elementBits / 128;
        const std::string rowsMode = tuple({"8", str(static_cast<std::uint64_t>(m_mnAtoms))});
        const std::string rowsStride = tuple({str(static_cast<std::uint64_t>(s * T)), el(m_mnAtomStride)});
        if (m_swizzle == Swizzle::None) {
            shape =
                tuple({rowsMode,
                       tuple({str(static_cast<std::uint64_t>(T)), str(static_cast<std::uint64_t>(kUnits))})});
            stride = tuple({rowsStride, tuple({"1", el(m_kAtomStride)})});
        } else if (m_kAtoms == 1) {
            shape =
                tuple({rowsMode,
                       tuple({str(static_cast<std::uint64_t>(T)), str(static_cast<std::uint64_t>(kUnits))})});
            stride = tuple({rowsStride, tuple({"1", str(static_cast<std::uint64_t>(T))})});
        } else {
            shape = tuple(
                {rowsMode, tuple({str(static_cast<std::uint64_t>(T)), str(static_cast<std::uint64_t>(s)),
                                  str(static_cast<std::uint64_t>(m_kAtoms))})});
            stride = tuple({rowsStride, tuple({"1", str(static_cast<std::uint64_t>(T)), el(m_kAtomStride)})});
        }
    } else {
        const int mnUnits = m_rows * m_elementBits / 128;
        const std::string kMode =
            tuple({std::to_string(atomRows(m_swizzle)), str(static_cast<std::uint64_t>(m_kAtoms))});
        const std::string kStride = tuple({str(static_cast<std::uint64_t>(s * T)), el(m_kAtomStride)});
        if (m_swizzle == Swizzle::None) {
            shape = tuple(
                {tuple({str(static_cast<std::uint64_t>(T)), "1", str(static_cast<std::uint64_t>(mnUnits))}),
                 kMode});
            stride = tuple({tuple({"1", str(static_cast<std::uint64_t>(T)), el(m_mnAtomStride)}), kStride});
        } else {
            const int inAtom = std::min(s, mnUnits);
            shape = tuple({tuple({str(static_cast<std::uint64_t>(T)), str(static_cast<std::uint64_t>(inAtom)),
                                  str(static_cast<std::uint64_t>(m_mnAtoms))}),
                           kMode});
            stride = tuple({tuple({"1", str(static_cast<std::uint64_t>(T)), el(m_mnAtomStride)}), kStride});
        }
    }
    return shape + ":" + stride;
}

// --- wgmma operands ------------------------------------------------------------------------------------

bool hasSharedMemoryOperands(const Variant& v) {
    return v.family == &family::kWgmma || v.family == &family::kWgmmaSp;
}

std::vector<SharedOperand> operands(const Variant& v, const Choice& choice, std::string& error) {
    if (descriptorSwizzleCode(choice.swizzle) < 0) {
        error = "swizzle " + std::string(toString(choice.swizzle)) + " is a tcgen05 mode; wgmma takes " +
                std::string(swizzleList());
        return {};
    }
    if (!hasSharedMemoryOperands(v)) {
        error = "shared-memory layouts (--major, --swizzle) apply to wgmma only; " + v.spec +
                " takes every operand from registers";
        return {};
    }
    const int bits = traits(v.atype).bits;
    if (choice.major == Major::MN && bits != 16) {
        error = "MN-major (imm-trans-a/b = 1) exists only for .f16/.bf16 wgmma; " + v.spec + " (." +
                std::string(toString(v.atype)) + ") reads shared memory K-major only";
        return {};
    }
    const bool sparse = v.family == &family::kWgmmaSp;
    std::vector<SharedOperand> out;
    out.reserve(2);
    try {
        // A (the SS form): M x K, or the compressed M x K/2 of sparse wgmma.
        const int aCols = sparse ? v.k / 2 : v.k;
        out.push_back(SharedOperand{lanemap::Operand::A, v.atype, v.m, aCols, 'm', sparse,
                                    SmemLayout::make(bits, v.m, aCols, choice.major, choice.swizzle)});
        out.push_back(SharedOperand{lanemap::Operand::B, v.btype, v.k, v.n, 'n', false,
                                    SmemLayout::make(bits, v.n, v.k, choice.major, choice.swizzle)});
    } catch (const std::invalid_argument& e) {
        error = e.what();
        return {};
    }
    return out;
}

std::optional<SharedOperand> operandOver(const Variant& v, lanemap::Operand operand, const Choice& choice,
                                         int rows, int cols, std::string& error) {
    std::vector<SharedOperand> own = operands(v, choice, error);
    if (own.empty())
        return std::nullopt;
    if (operand != lanemap::Operand::A && operand != lanemap::Operand::B) {
        error = "wgmma reads A and B from shared memory, not " + std::string(lanemap::toString(operand));
        return std::nullopt;
    }
    SharedOperand op = own[operand == lanemap::Operand::A ? 0 : 1];
    if (rows == 0 && cols == 0)
        return op;
    if (rows <= 0 || cols <= 0 || rows % op.rows != 0 || cols % op.cols != 0) {
        error = "an extent of " + std::to_string(rows) + " x " + std::to_string(cols) +
                " is not a whole number of " + v.spec + "'s " + std::to_string(op.rows) + " x " +
                std::to_string(op.cols) + " " + std::string(lanemap::toString(operand)) + " tiles";
        return std::nullopt;
    }
    const Coord extent = op.toLayout(rows, cols);
    try {
        op.layout =
            SmemLayout::make(op.layout.elementBits(), extent.mn, extent.k, choice.major, choice.swizzle);
    } catch (const std::invalid_argument& e) {
        error = e.what();
        return std::nullopt;
    }
    op.rows = rows;
    op.cols = cols;
    return op;
}

std::string toText(const SharedOperand& op) {
    const SmemLayout& l = op.layout;
    std::ostringstream out;
    const bool b = op.operand == lanemap::Operand::B;
    const char row = b ? 'k' : 'm';
    const char col = b ? 'n' : 'k';
    out << toString(op.operand) << " in shared memory ("
        << (b ? "K x N" : (op.compressed ? "M x K/2, compressed" : "M x K")) << " = " << op.rows << " x "
        << op.cols << ", ." << toString(op.elementType) << ", " << l.elementBits()
        << " bits): " << toString(l.major()) << "-major, " << toString(l.swizzle()) << " swizzle\n";
    out << "layout: " << l.canonicalFormula() << '\n';
    out << "exact (elements): " << l.exactLayout() << '\n';
    out << "swizzle: " << l.swizzleRule() << '\n';
    out << "descriptor: " << describe(l.descriptor()) << (l.usesLeadingByteOffset() ? "" : "; LBO unused")
        << '\n';
    out << "footprint: " << l.footprintBytes() << " bytes from " << hex(l.startAddress()) << '\n';
    if (l.elementBits() < 8)
        out << "sub-byte elements: each cell is byte.bit — the byte holding the element and its first bit\n";

    // Address grid in the operand's orientation.
    std::vector<std::string> cells(static_cast<std::size_t>(op.rows * op.cols));
    std::size_t width = 1;
    for (int r = 0; r < op.rows; ++r)
        for (int c = 0; c < op.cols; ++c) {
            const Coord lc = op.toLayout(r, c);
            const Placement p = l.placement(lc.mn, lc.k);
            std::string s = hexShort(p.address);
            if (l.elementBits() < 8)
                s += "." + std::to_string(p.bit);
            width = std::max(width, s.size());
            cells[static_cast<std::size_t>(r * op.cols + c)] = std::move(s);
        }
    out << "\nbyte address of each element (hex; row = " << row << ", col = " << col << "):\n";
    const std::size_t rowLabel = std::to_string(op.rows - 1).size() + 1;
    std::string header(rowLabel, ' ');
    for (int c = 0; c < op.cols; ++c) {
        const std::string h = std::to_string(c);
        header += ' ' + h + std::string(width > h.size() ? width - h.size() : 0, ' ');
    }
    while (!header.empty() && header.back() == ' ')
        header.pop_back();
    out << header << '\n';
    for (int r = 0; r < op.rows; ++r) {
        std::string line = std::string(rowLabel - std::to_string(r).size(), ' ') + std::to_string(r);
        for (int c = 0; c < op.cols; ++c) {
            const std::string& s = cells[static_cast<std::size_t>(r * op.cols + c)];
            line += ' ' + s + std::string(width - s.size(), ' ');
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << '\n';
    }

    // Memory map: which elements each 16-byte chunk holds (a chunk holds one strided index and T
    // consecutive contiguous indices), and where the chunk came from before the XOR.
    struct Chunk {
        int strided = -1, first = 0, last = 0, before = 0;
    };
    std::map<std::uint32_t, Chunk> chunks;
    for (int mn = 0; mn < l.rows(); ++mn)
        for (int k = 0; k < l.cols(); ++k) {
            const Placement p = l.placement(mn, k);
            Chunk& ch = chunks[p.address & ~15u];
            const int contiguous = l.major() == Major::K ? k : mn;
            const int strided = l.major() == Major::K ? mn : k;
            if (ch.strided < 0)
                ch = Chunk{strided, contiguous, contiguous, p.chunkBefore};
            ch.first = std::min(ch.first, contiguous);
            ch.last = std::max(ch.last, contiguous);
        }
    const bool swizzled = l.swizzle() != Swizzle::None;
    const std::uint32_t line = static_cast<std::uint32_t>(swizzled ? swizzleBytes(l.swizzle()) : 128);
    const int perLine = static_cast<int>(line / 16);
    const char contiguousLetter = l.major() == Major::K ? 'k' : op.mnLetter;
    const char stridedLetter = l.major() == Major::K ? op.mnLetter : 'k';
    std::map<std::uint32_t, std::string> labels;
    for (const auto& [address, ch] : chunks) {
        std::string s = std::string(1, stridedLetter) + std::to_string(ch.strided) + ' ' + contiguousLetter +
                        std::to_string(ch.first) + (ch.last != ch.first ? "-" + std::to_string(ch.last) : "");
        if (swizzled)
            s += " <-c" + std::to_string(ch.before);
        labels.emplace(address, std::move(s));
    }
    std::size_t cw = 1;
    for (const auto& [address, s] : labels)
        cw = std::max(cw, s.size());
    out << "\nmemory map: one line per " << line << " bytes; each 16-byte chunk c0..c" << perLine - 1
        << " names the elements it holds";
    if (swizzled)
        out << " and '<-cX' the chunk they occupy before the XOR (X ^ xor = this chunk)";
    out << "\naddress " << (swizzled ? " xor" : "");
    std::string head;
    for (int c = 0; c < perLine; ++c) {
        const std::string h = "c" + std::to_string(c);
        head += "  " + h + std::string(cw > h.size() ? cw - h.size() : 0, ' ');
    }
    while (!head.empty() && head.back() == ' ')
        head.pop_back();
    out << head << '\n';
    const std::uint32_t begin = l.startAddress() & ~(line - 1);
    const std::uint32_t end = l.startAddress() + l.footprintBytes();
    for (std::uint32_t base = begin; base < end; base += line) {
        std::ostringstream ln;
        std::string addr = hexShort(base);
        ln << std::string(addr.size() < 7 ? 7 - addr.size() : 0, ' ') << addr << ' ';
        if (swizzled)
            ln << std::string(3, ' ')
               << ((base >> (swizzleBase(l.swizzle()) + swizzleShift(l.swizzle()))) &
                   ((1u << swizzleBits(l.swizzle())) - 1u));
        bool any = false;
        for (int c = 0; c < perLine; ++c) {
            auto it = labels.find(base + static_cast<std::uint32_t>(16 * c));
            const std::string s = it == labels.end() ? "." : it->second;
            any = any || it != labels.end();
            ln << "  " << s << std::string(cw - s.size(), ' ');
        }
        if (!any)
            continue;
        std::string text = ln.str();
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        out << text << '\n';
    }
    return out.str();
}

} // namespace lanemap::smem
