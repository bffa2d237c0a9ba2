// The Tensor Memory maps of tmem.hpp: tcgen05.ld/st accesses, the mma data-path layouts, and their
// composition. The facts are the records of core/src/families/tcgen05/tcgen05.cpp; this file only evaluates
// them.

#include "lanemap/tmem.hpp"

#include "families/params_check.hpp"

#include <algorithm>
#include <stdexcept>

namespace lanemap::tmem {

namespace {

std::string joinInts(const std::vector<int>& values, std::string_view prefix = "") {
    std::string s;
    for (const int v : values)
        s += (s.empty() ? "" : ", ") + std::string(prefix) + std::to_string(v);
    return s;
}

} // namespace

std::string_view toString(Shape shape) {
    switch (shape) {
    case Shape::S32x32b:
        return "32x32b";
    case Shape::S16x64b:
        return "16x64b";
    case Shape::S16x128b:
        return "16x128b";
    case Shape::S16x256b:
        return "16x256b";
    case Shape::S16x32bx2:
        return "16x32bx2";
    }
    return "32x32b";
}

std::optional<Shape> parseShape(std::string_view text) {
    for (const Shape s : kShapes)
        if (toString(s) == text)
            return s;
    return std::nullopt;
}

std::string_view toString(Op op) {
    return op == Op::Ld ? "ld" : "st";
}

const ShapeRecord& recordOf(Shape shape) {
    for (const ShapeRecord& r : shapeRecords())
        if (r.shape == shape)
            return r;
    throw std::logic_error("tcgen05 shape without a record");
}

std::vector<int> validNums(Shape shape) {
    std::vector<int> nums;
    for (int n = 1; n <= recordOf(shape).maxNum; n *= 2)
        nums.push_back(n);
    return nums;
}

int registersOf(const Access& a) {
    return recordOf(a.shape).registers * a.num;
}

int elementsPerRegister(const Access& a) {
    return a.packed ? 2 : 1;
}

int halfColumnsOf(const Access& a) {
    // Columns of one repetition, times .num; packed: every register element is one column.
    return recordOf(a.shape).bitsPerLane / 32 * a.num * elementsPerRegister(a);
}

int splitOf(const Access& a) {
    if (!recordOf(a.shape).halfSplit)
        return 0;
    return a.split < 0 ? halfColumnsOf(a) : a.split;
}

int columnsOf(const Access& a) {
    return halfColumnsOf(a) + splitOf(a);
}

std::string validate(const Access& a) {
    const ShapeRecord& rec = recordOf(a.shape);
    const std::vector<int> nums = validNums(a.shape);
    if (std::find(nums.begin(), nums.end(), a.num) == nums.end())
        return "invalid .num .x" + std::to_string(a.num) + " for ." + std::string(toString(a.shape)) +
               " (at most 128 registers a thread); valid: " + joinInts(nums, ".x");
    if (a.split >= 0 && !rec.halfSplit)
        return "immHalfSplitoff applies to .16x32bx2 only";
    // `split > kColumns - half`, not `split + half > kColumns`: a split near INT_MAX would overflow.
    if (rec.halfSplit && a.split >= 0 &&
        (a.split < halfColumnsOf(a) || a.split > kColumns - halfColumnsOf(a)))
        return "immHalfSplitoff " + std::to_string(a.split) + " out of range for this access: from " +
               std::to_string(halfColumnsOf(a)) + " (the halves must not overlap) to " +
               std::to_string(kColumns - halfColumnsOf(a)) + " columns";
    return {};
}

namespace {

// Where element `half` of a register of repetition `repetition` lands, given the cell its register takes in
// one repetition: .num repeats the shape along the columns; packed, one register element reads two 16-bit
// columns.
Cell cellInAccess(const ShapeRecord& rec, int split, bool packed, int repetition, const RepetitionCell& c,
                  int half) {
    int column = repetition * (rec.bitsPerLane / 32) + c.column; // unpacked, within this half
    if (packed)
        column = 2 * column + half;
    if (c.secondHalf)
        column += split;
    return {c.lane, column};
}

} // namespace

AccessMap::AccessMap(const Access& access)
    : m_record(&recordOf(access.shape)), m_split(splitOf(access)), m_packed(access.packed) {
    if (m_record->registers > kRepetitionRegisters)
        throw std::logic_error("tcgen05 shape with more registers a repetition than AccessMap holds");
    for (int t = 0; t < 32; ++t)
        for (int r = 0; r < m_record->registers; ++r)
            m_repetition[static_cast<std::size_t>(t * m_record->registers + r)] = m_record->cell(t, r);
}

Cell AccessMap::operator()(int thread, int reg, int half) const {
    const int r = reg % m_record->registers;
    return cellInAccess(*m_record, m_split, m_packed, reg / m_record->registers,
                        m_repetition[static_cast<std::size_t>(thread * m_record->registers + r)], half);
}

void AccessMap::threadCells(int thread, std::span<Cell> out) const {
    // The cells of the first repetition, worked out once by cellInAccess; every later repetition is the
    // same cells `stride` columns further on (packed: twice as many columns a repetition).
    const int perRepetition = m_record->registers * (m_packed ? 2 : 1);
    std::array<Cell, kRepetitionRegisters * 2> first{};
    for (int r = 0, i = 0; r < m_record->registers; ++r)
        for (int half = 0; half < (m_packed ? 2 : 1); ++half, ++i)
            first[static_cast<std::size_t>(i)] =
                cellInAccess(*m_record, m_split, m_packed, 0,
                             m_repetition[static_cast<std::size_t>(thread * m_record->registers + r)], half);
    const int stride = cellInAccess(*m_record, m_split, m_packed, 1, RepetitionCell{}, 0).column;
    std::size_t i = 0;
    for (int shift = 0; i < out.size(); shift += stride)
        for (int k = 0; k < perRepetition && i < out.size(); ++k, ++i)
            out[i] = Cell{first[static_cast<std::size_t>(k)].lane,
                          first[static_cast<std::size_t>(k)].column + shift};
}

Cell cellOf(const Access& a, int thread, int reg, int half) {
    const ShapeRecord& rec = recordOf(a.shape);
    return cellInAccess(rec, splitOf(a), a.packed, reg / rec.registers, rec.cell(thread, reg % rec.registers),
                        half);
}

std::string ptxOf(const Access& a) {
    std::string s = "tcgen05." + std::string(toString(a.op)) + ".sync.aligned." +
                    std::string(toString(a.shape)) + ".x" + std::to_string(a.num);
    if (a.packed)
        s += a.op == Op::Ld ? ".pack::16b" : ".unpack::16b";
    return s + ".b32";
}

// ---- mma layouts --------------------------------------------------------------------------------------

std::string_view toString(Layout layout) {
    static constexpr std::string_view names[] = {"A", "B", "C", "D", "E", "F", "G"};
    return names[static_cast<int>(layout)];
}

std::string_view toString(Need need) {
    switch (need) {
    case Need::Either:
        return "either";
    case Need::Yes:
        return "yes";
    case Need::No:
        return "no";
    }
    return "either";
}

std::optional<MmaKind> parseMmaKind(std::string_view text) {
    for (const MmaKind k : kMmaKinds)
        if (toString(k) == text)
            return k;
    return std::nullopt;
}

int kOf(MmaKind kind, bool sparse) {
    tcgen05::InstrDescriptor d;
    d.kind = kind;
    d.sparse = sparse;
    return tcgen05::kOf(d);
}

bool supportsWs(MmaKind kind) {
    return kind == MmaKind::F16 || kind == MmaKind::TF32 || kind == MmaKind::F8F6F4 || kind == MmaKind::I8;
}

const LayoutRecord* selectLayout(int m, int ctaGroup, bool ws, bool sparse, std::string* why) {
    auto fits = [](Need need, bool value) { return need == Need::Either || (need == Need::Yes) == value; };
    for (const LayoutRecord& r : layoutRecords())
        if (r.m == m && r.ctaGroup == ctaGroup && fits(r.ws, ws) && fits(r.sparse, sparse))
            return &r;
    if (why) {
        std::string valid;
        for (const LayoutRecord& r : layoutRecords())
            valid += (valid.empty() ? "" : ", ") + std::string("M=") + std::to_string(r.m) +
                     " cta_group::" + std::to_string(r.ctaGroup) +
                     (r.ws == Need::Yes  ? " .ws"
                      : r.ws == Need::No ? ""
                                         : " [.ws]") +
                     (r.sparse == Need::Yes  ? " sparse"
                      : r.sparse == Need::No ? " dense"
                                             : "") +
                     " (" + std::string(toString(r.layout)) + ")";
        *why = "no data-path layout for M=" + std::to_string(m) + " cta_group::" + std::to_string(ctaGroup) +
               (ws ? " .ws" : "") + (sparse ? " sparse" : "") + "; the ISA's rows: " + valid;
    }
    return nullptr;
}

bool NRange::contains(int n) const {
    if (!only.empty())
        return std::find(only.begin(), only.end(), n) != only.end();
    return n >= first && n <= last && (n - first) % step == 0;
}

std::string NRange::describe() const {
    if (only.empty())
        return std::to_string(first) + ".." + std::to_string(last) + " in steps of " + std::to_string(step);
    return family::describeValues(only);
}

std::vector<int> NRange::values() const {
    if (!only.empty())
        return only;
    std::vector<int> out;
    for (int n = first; n <= last; n += step)
        out.push_back(n);
    return out;
}

NRange validN(const MmaShape& s) {
    // Table 39's N rule, read from the one place it is written (tcgen05::validShapeN): every N from 8 to 256
    // the form takes, kept as first/step/last where it is one arithmetic run.
    std::vector<int> ns;
    for (int n = 8; n <= 256; n += 8)
        if (tcgen05::validShapeN(s.kind, s.sparse, n, s.ctaGroup, s.ws))
            ns.push_back(n);
    if (ns.size() < 2)
        return {ns.empty() ? 0 : ns.front(), 8, ns.empty() ? 0 : ns.front(), ns};
    const int step = ns[1] - ns[0];
    for (std::size_t i = 1; i < ns.size(); ++i)
        if (ns[i] - ns[i - 1] != step || ns.size() <= 3)
            return {ns.front(), step, ns.back(), ns};
    return {ns.front(), step, ns.back(), {}};
}

std::string validate(const MmaShape& s) {
    if (s.ctaGroup != 1 && s.ctaGroup != 2)
        return "invalid cta_group::" + std::to_string(s.ctaGroup) + "; valid: cta_group::1, cta_group::2";
    if (s.ws && s.ctaGroup != 1)
        return ".ws exists with cta_group::1 only";
    if (s.ws && !supportsWs(s.kind))
        return ".ws exists for kind::f16, kind::tf32, kind::f8f6f4 and kind::i8 only";
    std::string why;
    const LayoutRecord* rec = selectLayout(s.m, s.ctaGroup, s.ws, s.sparse, &why);
    if (!rec)
        return why;
    // M: the data-path layouts exist for more (kind, M) pairs than Table 39 allows (block-scaled kinds).
    for (const tcgen05::Violation& v : tcgen05::shapeViolations(s.kind, s.sparse, s.m, s.n, s.ctaGroup, s.ws))
        if (v.field == "M")
            return "invalid M=" + std::to_string(s.m) + ": " + v.rule;
    const NRange range = validN(s);
    if (!range.contains(s.n))
        return "invalid N=" + std::to_string(s.n) + " for M=" + std::to_string(s.m) + (s.ws ? " .ws" : "") +
               (s.sparse ? " sparse" : "") + " cta_group::" + std::to_string(s.ctaGroup) +
               " kind::" + std::string(toString(s.kind)) + "; valid N: " + range.describe();
    if (s.laneAlignment != 0 && !(rec->halfDatapath && s.laneAlignment == 16))
        return "lane alignment " + std::to_string(s.laneAlignment) + " is not valid for layout " +
               std::string(toString(rec->layout)) +
               (rec->halfDatapath ? "; valid: 0 or 16"
                                  : "; valid: 0 (only the half-datapath layouts C and F "
                                    "take 16)");
    return {};
}

const LayoutRecord& layoutOf(const MmaShape& s) {
    const LayoutRecord* rec = selectLayout(s.m, s.ctaGroup, s.ws, s.sparse);
    if (!rec)
        throw std::logic_error("tcgen05.mma shape without a layout: " + validate(s));
    return *rec;
}

DataPath::DataPath(const MmaShape& shape)
    : m_shape(shape), m_record(&layoutOf(shape)),
      m_aWidth(kOf(shape.kind, shape.sparse) / (shape.sparse ? 2 : 1)) {}

// The record's formula over a width `width` (N for D, K for A, in elements).
Placement DataPath::place(int m, int col, int width) const {
    const LayoutRecord& rec = *m_record;
    const int rowsPerCta = m_shape.m / m_shape.ctaGroup;
    const int r = m % rowsPerCta;
    const int slabWidth = width / rec.slabs;
    Placement p;
    p.cta = m / rowsPerCta;
    p.lane = r % rec.rowGroup + rec.rowGroupStride * (r / rec.rowGroup) + rec.slabLanes * (col / slabWidth) +
             m_shape.laneAlignment;
    p.column = col % slabWidth;
    return p;
}

Placement DataPath::d(int m, int n) const {
    return place(m, n, m_shape.n);
}

Placement DataPath::a(int m, int k, int elementBits) const {
    Placement p = place(m, k, m_aWidth); // a sparse A holds K/2 columns of values
    const int bit = p.column * elementBits;
    p.column = bit / 32;
    p.bit = bit % 32;
    return p;
}

Placement placeD(const MmaShape& s, int m, int n) {
    return DataPath(s).d(m, n);
}

Placement placeA(const MmaShape& s, int m, int k, int elementBits) {
    return DataPath(s).a(m, k, elementBits);
}

std::string ptxStemOf(const MmaShape& s) {
    std::string p = "tcgen05.mma";
    if (s.ws)
        p += ".ws";
    if (s.sparse)
        p += ".sp";
    return p + ".cta_group::" + std::to_string(s.ctaGroup) + ".kind::" + std::string(toString(s.kind));
}
std::string ptxOf(const MmaShape& s) {
    return ptxOf(s, std::nullopt);
}

std::string ptxOf(const MmaShape& s, const std::optional<tcgen05::ScaleVec>& vec) {
    // ptxas (CUDA 13.0) rejects a block-scaled kind without .block_scale, and mxf4nvf4 without a vector
    // size (2X or 4X; 4X, NVFP4's 16-element blocks, is the default). The ISA's own example omits both.
    switch (s.kind) {
    case MmaKind::MXF8F6F4:
    case MmaKind::MXF4:
        return ptxStemOf(s) + ".block_scale";
    case MmaKind::MXF4NVF4:
        return ptxStemOf(s) + ".block_scale." +
               std::string(tcgen05::toString(vec.value_or(tcgen05::ScaleVec::X4)));
    default:
        return ptxStemOf(s);
    }
}

// ---- composition ------------------------------------------------------------------------------------

std::string validateComposition(const MmaShape& s, const Access& a) {
    if (std::string why = validate(s); !why.empty())
        return why;
    if (std::string why = validate(a); !why.empty())
        return why;
    if (a.split >= 0 && a.split != halfColumnsOf(a))
        return "composition uses the default immHalfSplitoff (the halves side by side), so that the accesses "
               "tile the columns";
    return {};
}

namespace {

// Inverse of one access: (lane offset, column offset) -> (thread, reg, half).
struct Inverse {
    int lanes = 0, columns = 0;
    std::vector<std::array<int, 3>> slots; // lanes x columns, {-1} where untouched
    explicit Inverse(const Access& a)
        : lanes(recordOf(a.shape).lanes), columns(columnsOf(a)),
          slots(static_cast<std::size_t>(lanes * columns), {-1, -1, -1}) {
        const AccessMap map(a);
        for (int t = 0; t < 32; ++t)
            for (int r = 0; r < registersOf(a); ++r)
                for (int h = 0; h < elementsPerRegister(a); ++h) {
                    const Cell c = map(t, r, h);
                    slots[static_cast<std::size_t>(c.lane * columns + c.column)] = {t, r, h};
                }
    }
};

const Inverse& inverseOf(const Access& a) {
    // Few distinct accesses are asked for; keep their inverses (thread-local: no locking on a hot path).
    thread_local std::vector<std::pair<Access, Inverse>> cache;
    for (const auto& [key, inv] : cache)
        if (key == a)
            return inv;
    return cache.emplace_back(a, Inverse(a)).second;
}

Holder holderOf(const Access& a, const Placement& p) {
    const Inverse& inv = inverseOf(a);
    Holder h;
    h.cta = p.cta;
    h.warp = p.lane / kSubpartitionLanes;
    const int laneBase =
        kSubpartitionLanes * h.warp + (inv.lanes == 16 ? 16 * ((p.lane % kSubpartitionLanes) / 16) : 0);
    const int columnBase = p.column / inv.columns * inv.columns;
    const auto& slot =
        inv.slots[static_cast<std::size_t>((p.lane - laneBase) * inv.columns + (p.column - columnBase))];
    if (slot[0] < 0)
        throw std::logic_error("tcgen05 access leaves a cell of its span untouched");
    h.thread = slot[0];
    h.reg = slot[1];
    h.bit = 16 * slot[2] + p.bit;
    h.address = {laneBase, columnBase};
    return h;
}

} // namespace

Holder whoHoldsD(const MmaShape& s, const Access& a, int m, int n) {
    return holderOf(a, placeD(s, m, n));
}

Holder whoHoldsA(const MmaShape& s, const Access& a, int m, int k, int elementBits) {
    return holderOf(a, placeA(s, m, k, elementBits));
}

} // namespace lanemap::tmem
