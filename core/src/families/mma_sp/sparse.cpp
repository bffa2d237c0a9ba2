#include "lanemap/sparse.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <sstream>
#include <tuple>

namespace lanemap::sparse {

namespace {

// clang-format off
constexpr std::array kRules{
    //          pattern                        granularity      chunk kept index field
    StorageRule{Pattern::TwoOfFour,           "2:4",            4,    2,   2,    4},
    StorageRule{Pattern::OneOfTwo,            "1:2",            2,    1,   4,    4},
    StorageRule{Pattern::PairwiseFourOfEight, "4:8 pair-wise",  8,    4,   2,    4},
};
// clang-format on

// tf32 (1:2): the field reads as two 2-bit indices of 16-bit halves; halves {0,1} are element 0, {2,3}
// element 1.
constexpr unsigned kTf32Element0 = 0b0100;
constexpr unsigned kTf32Element1 = 0b1110;

std::uint32_t mask(int bits) {
    return bits >= 32 ? 0xFFFFFFFFu : ((1u << bits) - 1u);
}

std::string hex(std::uint32_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

std::string cols(int first, int last) {
    return "[" + std::to_string(first) + ".." + std::to_string(last) + "]";
}

std::string valueList(Pattern pattern, bool ordered) {
    std::string s;
    for (std::uint8_t v : validFieldValues(pattern, ordered))
        s += (s.empty() ? "" : ", ") + binary(v);
    return s;
}

} // namespace

const StorageRule& rule(Pattern pattern) {
    for (const StorageRule& r : kRules)
        if (r.pattern == pattern)
            return r;
    return kRules[0];
}

const StorageRule* ruleFor(std::string_view granularity) {
    for (const StorageRule& r : kRules)
        if (r.granularity == granularity)
            return &r;
    return nullptr;
}

const StorageRule* ruleForContainerBits(int bits) {
    switch (bits) {
    case 16:
    case 8:
        return &rule(Pattern::TwoOfFour);
    case 32:
        return &rule(Pattern::OneOfTwo);
    case 4:
        return &rule(Pattern::PairwiseFourOfEight);
    default:
        return nullptr;
    }
}

std::string binary(unsigned value, int bits) {
    std::string s = "0b";
    for (int b = bits - 1; b >= 0; --b)
        s += ((value >> b) & 1u) ? '1' : '0';
    return s;
}

namespace {

// What is wrong with a field value. The rules are read here alone; the message is made only where one is
// shown (the catalog asks every value of every sparse variant, and needs the verdict only).
enum class FieldFault : std::uint8_t { None, TooWide, NotATf32Index, RepeatsAnIndex, NotSorted };

FieldFault faultOf(Pattern pattern, bool ordered, unsigned value) {
    if (value > 0xFu)
        return FieldFault::TooWide;
    if (pattern == Pattern::OneOfTwo)
        return value == kTf32Element0 || value == kTf32Element1 ? FieldFault::None
                                                                : FieldFault::NotATf32Index;
    const unsigned i0 = value & 3u, i1 = (value >> 2) & 3u;
    if (i0 == i1)
        return FieldFault::RepeatsAnIndex;
    if (ordered && i0 > i1)
        return FieldFault::NotSorted;
    return FieldFault::None;
}

} // namespace

std::string fieldValueProblem(Pattern pattern, bool ordered, unsigned value) {
    const unsigned i0 = value & 3u, i1 = (value >> 2) & 3u;
    const char* what = pattern == Pattern::TwoOfFour ? "index" : "pair index";
    switch (faultOf(pattern, ordered, value)) {
    case FieldFault::None:
        return {};
    case FieldFault::TooWide:
        return "value " + hex(value) + " does not fit in a 4-bit field";
    case FieldFault::NotATf32Index:
        return binary(value) +
               " is not a tf32 (1:2) index: only 0b0100 (element 0) and 0b1110 (element 1) are "
               "meaningful";
    case FieldFault::RepeatsAnIndex:
        return binary(value) + " repeats " + what + " " + std::to_string(i0) +
               " (0b0000, 0b0101, 0b1010 and 0b1111 are invalid)";
    case FieldFault::NotSorted:
        return binary(value) + " is not sorted: ::ordered_metadata needs the " + what + " in bits [1..0] (" +
               std::to_string(i0) + ") below the one in bits [3..2] (" + std::to_string(i1) + ")";
    }
    return {};
}

bool isValidFieldValue(Pattern pattern, bool ordered, unsigned value) {
    return faultOf(pattern, ordered, value) == FieldFault::None;
}

std::vector<std::uint8_t> validFieldValues(Pattern pattern, bool ordered) {
    std::vector<std::uint8_t> out;
    for (unsigned v = 0; v < 16; ++v)
        if (isValidFieldValue(pattern, ordered, v))
            out.push_back(static_cast<std::uint8_t>(v));
    return out;
}

std::vector<int> decodeField(Pattern pattern, unsigned value) {
    if (!isValidFieldValue(pattern, false, value))
        return {};
    const int i0 = static_cast<int>(value & 3u), i1 = static_cast<int>((value >> 2) & 3u);
    switch (pattern) {
    case Pattern::TwoOfFour:
        return {i0, i1};
    case Pattern::OneOfTwo:
        return {value == kTf32Element0 ? 0 : 1};
    case Pattern::PairwiseFourOfEight:
        return {2 * i0, 2 * i0 + 1, 2 * i1, 2 * i1 + 1};
    }
    return {};
}

unsigned encodeField(Pattern pattern, std::span<const int> positions) {
    switch (pattern) {
    case Pattern::TwoOfFour:
        return static_cast<unsigned>(positions[0]) | (static_cast<unsigned>(positions[1]) << 2);
    case Pattern::OneOfTwo:
        return positions[0] == 0 ? kTf32Element0 : kTf32Element1;
    case Pattern::PairwiseFourOfEight:
        return static_cast<unsigned>(positions[0] / 2) | (static_cast<unsigned>(positions[2] / 2) << 2);
    }
    return 0;
}

// --- Codec ----------------------------------------------------------------------------------------------

std::optional<Codec> Codec::make(const Instruction& in, int selector, std::string& error,
                                 std::string_view candidate) {
    if (!in.metadata) {
        error = in.spec + " is dense: it has no sparse metadata";
        return std::nullopt;
    }
    const MetadataLayout& md = *in.metadata;
    const FragmentLayout* a = in.operand(Operand::A);
    const StorageRule* r = ruleFor(md.granularity);
    if (!a || !a->chunked() || !r) {
        error =
            in.spec + ": no compressed A operand or unknown sparsity '" + std::string(md.granularity) + "'";
        return std::nullopt;
    }
    const std::vector<MetadataSelector>* selectors = &md.selectors;
    if (!candidate.empty()) {
        selectors = nullptr;
        std::string names;
        for (const MetadataCandidate& c : md.candidates) {
            if (c.name == candidate)
                selectors = &c.selectors;
            names += (names.empty() ? "" : ", ") + c.name;
        }
        if (!selectors) {
            error = "no metadata candidate '" + std::string(candidate) + "' for " + in.spec +
                    (names.empty() ? "; its metadata mapping is resolved (no candidates)"
                                   : "; candidates: " + names);
            return std::nullopt;
        }
    }
    const MetadataSelector* sel = nullptr;
    std::string valid;
    for (const MetadataSelector& s : *selectors) {
        if (s.value == selector)
            sel = &s;
        valid += (valid.empty() ? "" : ", ") + std::to_string(s.value);
    }
    if (!sel) {
        error = "sparsity selector " + std::to_string(selector) + " is not valid for " + in.spec +
                "; valid selectors: " + valid;
        return std::nullopt;
    }

    Codec c;
    c.m_rule = r;
    c.m_ordered = in.ordered;
    c.m_selector = selector;
    c.m_threads = a->threads();
    c.m_registers = a->registers();
    c.m_rows = a->rows();
    c.m_cols = a->cols();
    c.m_elementBits = a->elementBits();
    c.m_spec = in.spec;
    c.m_a = a;
    c.m_fields = sel->fields;
    const int chunks = c.m_cols / r->chunkCols;
    c.m_fieldOfChunk.assign(static_cast<std::size_t>(c.m_rows * chunks), -1);
    auto broken = [&](const std::string& what) {
        error = "metadata layout of " + in.spec + " (selector " + std::to_string(selector) + ") " + what;
        return std::nullopt;
    };
    for (std::size_t i = 0; i < c.m_fields.size(); ++i) {
        const MetadataField& f = c.m_fields[i];
        if (f.colLast - f.colFirst + 1 != r->chunkCols || f.colFirst % r->chunkCols != 0 || f.row < 0 ||
            f.row >= c.m_rows || f.colLast >= c.m_cols || f.thread < 0 || f.thread >= c.m_threads)
            return broken("has a field outside the chunk grid");
        std::int32_t& slot =
            c.m_fieldOfChunk[static_cast<std::size_t>(f.row * chunks + f.colFirst / r->chunkCols)];
        if (slot >= 0)
            return broken("describes row " + std::to_string(f.row) + " cols " + cols(f.colFirst, f.colLast) +
                          " twice");
        slot = static_cast<std::int32_t>(i);
    }
    // Elements of one thread sharing a row and a column range fill its chunks in index order, `kept` per
    // chunk.
    std::map<std::tuple<int, int, int>, int> seen;
    c.m_slots.reserve(a->elements().size());
    for (const Element& e : a->elements()) {
        const int k = seen[{e.thread, e.row, e.col}]++;
        const int chunkFirst = e.col + (k / r->kept) * r->chunkCols;
        if (chunkFirst + r->chunkCols - 1 > e.colLast)
            return broken("does not fit A: too many elements in row " + std::to_string(e.row) + " cols " +
                          cols(e.col, e.colLast) + " of thread " + std::to_string(e.thread));
        const std::int32_t field =
            c.m_fieldOfChunk[static_cast<std::size_t>(e.row * chunks + chunkFirst / r->chunkCols)];
        if (field < 0)
            return broken("has no field for row " + std::to_string(e.row) + " cols " +
                          cols(chunkFirst, chunkFirst + r->chunkCols - 1));
        c.m_slots.push_back({static_cast<std::uint32_t>(field), k % r->kept});
    }
    return c;
}

const MetadataField* Codec::field(int row, int col) const {
    if (row < 0 || row >= m_rows || col < 0 || col >= m_cols)
        return nullptr;
    const int chunks = m_cols / m_rule->chunkCols;
    const std::int32_t i = m_fieldOfChunk[static_cast<std::size_t>(row * chunks + col / m_rule->chunkCols)];
    return i < 0 ? nullptr : &m_fields[static_cast<std::size_t>(i)];
}

void Codec::setField(std::vector<std::uint32_t>& metadata, const MetadataField& f, unsigned value) {
    const int width = f.bitHi - f.bitLo + 1;
    const std::uint32_t m = mask(width) << f.bitLo;
    std::uint32_t& word = metadata[static_cast<std::size_t>(f.thread)];
    word = (word & ~m) | ((static_cast<std::uint32_t>(value) << f.bitLo) & m);
}

unsigned Codec::getField(std::span<const std::uint32_t> metadata, const MetadataField& f) {
    return (metadata[static_cast<std::size_t>(f.thread)] >> f.bitLo) & mask(f.bitHi - f.bitLo + 1);
}

bool Codec::compress(const Matrix& logical, Fragments& out, std::string& error) const {
    if (logical.rows != m_rows || logical.cols != m_cols ||
        logical.values.size() != static_cast<std::size_t>(m_rows * m_cols)) {
        error = "the matrix is " + std::to_string(logical.rows) + "x" + std::to_string(logical.cols) +
                "; A of " + m_spec + " is " + std::to_string(m_rows) + "x" + std::to_string(m_cols);
        return false;
    }
    const std::uint32_t valueMask = mask(m_elementBits);
    for (int r = 0; r < m_rows; ++r)
        for (int c = 0; c < m_cols; ++c)
            if (logical.at(r, c) & ~valueMask) {
                error = "value " + hex(logical.at(r, c)) + " at row " + std::to_string(r) + ", col " +
                        std::to_string(c) + " does not fit the " + std::to_string(m_elementBits) + "-bit ." +
                        std::string(toString(m_a->elementType())) + " elements of " + m_spec;
                return false;
            }
    const StorageRule& rl = *m_rule;
    // Unit of sparsity: a column (2:4, 1:2) or a column pair (4:8 pair-wise).
    const int unit = rl.pattern == Pattern::PairwiseFourOfEight ? 2 : 1;
    const int unitsPerChunk = rl.chunkCols / unit;
    const int keptUnits = rl.kept / unit;
    const int chunks = m_cols / rl.chunkCols;
    std::vector<std::vector<int>> kept(
        static_cast<std::size_t>(m_rows * chunks)); // column offsets, ascending
    for (int r = 0; r < m_rows; ++r) {
        for (int ch = 0; ch < chunks; ++ch) {
            const int first = ch * rl.chunkCols;
            std::vector<int> units, nonzeroCols;
            for (int u = 0; u < unitsPerChunk; ++u) {
                bool any = false;
                for (int x = 0; x < unit; ++x) {
                    if (logical.at(r, first + u * unit + x) != 0) {
                        any = true;
                        nonzeroCols.push_back(first + u * unit + x);
                    }
                }
                if (any)
                    units.push_back(u);
            }
            if (static_cast<int>(units.size()) > keptUnits) {
                std::ostringstream msg;
                msg << "row " << r << ", chunk cols " << cols(first, first + rl.chunkCols - 1) << " breaks "
                    << rl.granularity << " sparsity: non-zero cols";
                for (int c : nonzeroCols)
                    msg << ' ' << c;
                if (rl.pattern == Pattern::PairwiseFourOfEight)
                    msg << " touch " << units.size() << " column pairs; at most " << keptUnits
                        << " of the 4 pairs of an 8-column chunk may be non-zero";
                else
                    msg << "; at most " << rl.kept << " of every " << rl.chunkCols
                        << " columns may be non-zero";
                error = msg.str();
                return false;
            }
            // Pad with the lowest unused units so every chunk keeps exactly `kept` elements (zeros are
            // stored).
            for (int u = 0; static_cast<int>(units.size()) < keptUnits; ++u)
                if (std::find(units.begin(), units.end(), u) == units.end())
                    units.push_back(u);
            std::sort(units.begin(), units.end());
            std::vector<int>& positions = kept[static_cast<std::size_t>(r * chunks + ch)];
            for (int u : units)
                for (int x = 0; x < unit; ++x)
                    positions.push_back(u * unit + x);
        }
    }
    out.selector = m_selector;
    out.a.assign(static_cast<std::size_t>(m_threads),
                 std::vector<std::uint32_t>(static_cast<std::size_t>(m_registers), 0u));
    out.metadata.assign(static_cast<std::size_t>(m_threads), 0u);
    const auto elements = m_a->elements();
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const Element& e = elements[i];
        const MetadataField& f = m_fields[m_slots[i].field];
        const std::vector<int>& positions =
            kept[static_cast<std::size_t>(f.row * chunks + f.colFirst / rl.chunkCols)];
        const std::uint32_t value =
            logical.at(f.row, f.colFirst + positions[static_cast<std::size_t>(m_slots[i].slot)]);
        out.a[e.thread][e.reg] |= value << e.bit;
    }
    for (const MetadataField& f : m_fields)
        setField(out.metadata, f,
                 encodeField(rl.pattern,
                             kept[static_cast<std::size_t>(f.row * chunks + f.colFirst / rl.chunkCols)]));
    return true;
}

bool Codec::place(std::span<const std::uint32_t> metadata, std::vector<Placement>& out,
                  std::string& error) const {
    if (metadata.size() != static_cast<std::size_t>(m_threads)) {
        error = "expected " + std::to_string(m_threads) + " metadata words (one per thread), got " +
                std::to_string(metadata.size());
        return false;
    }
    // Fields hold a handful of distinct values (4-bit fields: at most 16): decode each value once.
    std::vector<std::vector<int>> byValue;
    std::vector<unsigned> valueOf(m_fields.size()); // an index into byValue, which grows: no pointers into it
    for (std::size_t i = 0; i < m_fields.size(); ++i) {
        const MetadataField& f = m_fields[i];
        const unsigned value = getField(metadata, f);
        if (const std::string problem = fieldValueProblem(m_rule->pattern, m_ordered, value);
            !problem.empty()) {
            error = "lane " + std::to_string(f.thread) + ", metadata bits [" + std::to_string(f.bitHi) +
                    ".." + std::to_string(f.bitLo) + "] (row " + std::to_string(f.row) + ", cols " +
                    cols(f.colFirst, f.colLast) + "): " + problem + "; valid values for " + m_spec + ": " +
                    valueList(m_rule->pattern, m_ordered);
            return false;
        }
        if (value >= byValue.size())
            byValue.resize(value + 1);
        if (byValue[value].empty())
            byValue[value] = decodeField(m_rule->pattern, value);
        valueOf[i] = value;
    }
    out.clear();
    out.reserve(m_slots.size());
    const auto elements = m_a->elements();
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const Element& e = elements[i];
        const Slot& s = m_slots[i];
        const MetadataField& f = m_fields[s.field];
        Placement p;
        p.thread = e.thread;
        p.index = e.index;
        p.reg = e.reg;
        p.bit = e.bit;
        p.row = f.row;
        p.chunkFirst = f.colFirst;
        p.slot = s.slot;
        p.col = f.colFirst + byValue[valueOf[s.field]][static_cast<std::size_t>(s.slot)];
        p.field = f;
        out.push_back(p);
    }
    return true;
}

bool Codec::expand(const Fragments& fragments, Matrix& out, std::string& error) const {
    if (fragments.a.size() != static_cast<std::size_t>(m_threads)) {
        error = "expected A registers of " + std::to_string(m_threads) + " threads, got " +
                std::to_string(fragments.a.size());
        return false;
    }
    for (std::size_t t = 0; t < fragments.a.size(); ++t)
        if (fragments.a[t].size() != static_cast<std::size_t>(m_registers)) {
            error = "thread " + std::to_string(t) + " has " + std::to_string(fragments.a[t].size()) +
                    " A registers; " + m_spec + " uses " + std::to_string(m_registers);
            return false;
        }
    std::vector<Placement> placements;
    if (!place(fragments.metadata, placements, error))
        return false;
    out = Matrix(m_rows, m_cols);
    const std::uint32_t valueMask = mask(m_elementBits);
    for (const Placement& p : placements)
        out.at(p.row, p.col) =
            (fragments.a[static_cast<std::size_t>(p.thread)][static_cast<std::size_t>(p.reg)] >> p.bit) &
            valueMask;
    return true;
}

} // namespace lanemap::sparse
