// tcgen05 (Blackwell, PTX 9.1 §9.7.16) as data: the five tcgen05.ld/st data-path shapes (§9.7.16.2.3, Figs.
// 183-187), the tcgen05.mma data-path layouts A-G (§9.7.16.10.5, Figs. 205-218), and the catalog entries
// (docs/reference/tcgen05.md).
//
// The ISA draws every placement as a figure and states in text only the sizes ("accesses 16 lanes with
// 256·num bits per lane"), the register counts (Table 49) and the layout table's columns. The one-line
// formulas below are the figures read through CUTLASS's SM100 traits (copy_traits_sm100.hpp
// SM100_TMEM_LOAD_*; mma_traits_sm100_frag.hpp tmem_frg, tmem_frg_ws), which state them as CuTe layouts.
// Nothing here is confirmed on hardware: tcgen05 needs sm_100a.
//
// Notation: t = thread of the warp (0..31), r = register within one repetition.

#include "families/params_check.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/cta_parts.hpp"
#include "lanemap/diagram_tmem.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile_ctas.hpp"
#include "lanemap/tmem.hpp"

#include "families/tcgen05/tcgen05_spec.hpp"
#include "model/build_cache.hpp"

#include <string>
#include <tuple>
#include <utility>

namespace lanemap {

namespace family {
extern const Family kTcgen05Ld, kTcgen05St, kTcgen05Mma;
}

namespace {

using tmem::RepetitionCell;

// .32x32b: thread t owns lane t; register r of repetition j is column j.
RepetitionCell cell32x32b(int t, int) {
    return {t, 0, false};
}
// .16x64b (CUTLASS DstLayout ((2,2,8),32):((512,32,64),1)): lane t/4 + 8 (t%2), column (t/2)%2.
RepetitionCell cell16x64b(int t, int) {
    return {t / 4 + 8 * (t % 2), (t / 2) % 2, false};
}
// .16x128b (((4,8),(32,2)):((32,128),(1,1024))): r0 lane t/4, r1 lane t/4 + 8; column t%4.
RepetitionCell cell16x128b(int t, int r) {
    return {t / 4 + 8 * r, t % 4, false};
}
// .16x256b (((4,8),(64,2)):((64,256),(1,2048))), the mma m16n8 accumulator pattern: r0, r1 lane t/4, columns
// 2(t%4) and 2(t%4)+1; r2, r3 the same columns of lane t/4 + 8.
RepetitionCell cell16x256b(int t, int r) {
    return {t / 4 + 8 * (r / 2), 2 * (t % 4) + r % 2, false};
}
// .16x32bx2 (((16,2),32):((64,32),1) with the split one column away): threads 0-15 lanes 0-15 at taddr,
// threads 16-31 lanes 0-15 at taddr + immHalfSplitoff.
RepetitionCell cell16x32bx2(int t, int) {
    return {t % 16, 0, t >= 16};
}

using enum tmem::Shape;

const std::vector<tmem::ShapeRecord> kShapeTable = {
    // clang-format off
    // shape lanes bits/lane regs maxNum split cell source figure cutlass
    {S32x32b,   32,  32, 1, 128, false, cell32x32b,   Source::Figure, "Figure 183", "SM100_TMEM_LOAD_32dp32b1x"},
    {S16x64b,   16,  64, 1, 128, false, cell16x64b,   Source::Cutlass, "Figure 184", "SM100_TMEM_LOAD_16dp64b1x"},
    {S16x128b,  16, 128, 2,  64, false, cell16x128b,  Source::Cutlass, "Figure 185", "SM100_TMEM_LOAD_16dp128b1x"},
    {S16x256b,  16, 256, 4,  32, false, cell16x256b,  Source::Cutlass, "Figure 186", "SM100_TMEM_LOAD_16dp256b1x"},
    {S16x32bx2, 16,  32, 1, 128, true,  cell16x32bx2, Source::Figure, "Figure 187", "SM100_TMEM_LOAD_16dp32b1x"},
    // clang-format on
};

using enum tmem::Layout;
using tmem::Need;

// The ISA's table (§9.7.16.10.5) with the placement its figures draw (CUTLASS's atom in the last column).
const std::vector<tmem::LayoutRecord> kLayoutTable = {
    // clang-format off
    // layout M cta sparse ws organisation half rowGroup rowGroupStride slabs slabLanes figure cutlass
    {A, 256, 2, Need::Either, Need::No,     "4x1", false, 128,  0, 1,  0, "Figures 205-206", "(128,N):(1@dp,1@col) per CTA"},
    {B, 128, 2, Need::No,     Need::No,     "2x2", false,  64,  0, 2, 64, "Figures 207-208", "(64,(N/2,2)):(1@dp,(1@col,64@dp)) per CTA"},
    {C, 128, 2, Need::Yes,    Need::No,     "4x1 (1/2 datapath utilized)", true, 16, 32, 1, 0, "Figures 209-210", "((16,4),N):((1@dp,32@dp),1@col) per CTA"},
    {D, 128, 1, Need::Either, Need::Either, "4x1", false, 128,  0, 1,  0, "Figures 211-212", "(128,N):(1@dp,1@col)"},
    {E,  64, 1, Need::Either, Need::Yes,    "2x3", false,  64,  0, 2, 64, "Figures 213-214", "(64,(N/2,2)):(1@dp,(1@col,64@dp)) (tmem_frg_ws)"},
    {F,  64, 1, Need::Either, Need::No,     "4x1 (1/2 datapath utilized)", true, 16, 32, 1, 0, "Figures 215-216", "((16,4),N):((1@dp,32@dp),1@col)"},
    {G,  32, 1, Need::Either, Need::Yes,    "1x4", false,  32,  0, 4, 32, "Figures 217-218", "(32,(N/4,4)):(1@dp,(1@col,32@dp)) (tmem_frg_ws)"},
    // clang-format on
};

constexpr std::string_view kNotOnHardware =
    "not confirmed on hardware (needs sm_100a): the ISA's figure, cross-checked with CUTLASS's SM100 traits";
constexpr std::string_view kPackOrder =
    "ambiguity: the ISA says .pack::16b / .unpack::16b move two 16-bit elements of adjacent columns through "
    "one register but not in which order; lanemap shows the lower column in bits 15-0 (CUTLASS's _16b "
    "atoms), and the low 16 bits of each column";
constexpr std::string_view kSplit =
    "ambiguity: the ISA does not state the unit or range of immHalfSplitoff; lanemap reads it in 32-bit "
    "columns and shows the second half right after the first (the offset CUTLASS passes: num, 2 num "
    "packed); another offset is a parameter of the map (tmem.hpp Access::split)";
constexpr std::string_view kHalfSelect =
    "the 16-lane shapes access one half of the warp's 32-lane subpartition: the lane in taddr (32 w or "
    "32 w + 16) selects it";

// The registers of one access as placed (named D, the direction of a load): a tcgen05.st moves the same
// registers the other way, so both rows share one table (built once per shape, .num, packing and split).
FragmentLayout buildAccessLayout(const tmem::Access& access) {
    const bool packed = access.packed;
    const int registers = tmem::registersOf(access);
    const int perRegister = tmem::elementsPerRegister(access);
    const tmem::ShapeRecord& rec = tmem::recordOf(access.shape);
    const tmem::AccessMap map(access);
    FragmentShape shape{rec.lanes, tmem::columnsOf(access), 1, registers, 32, perRegister};
    std::vector<tmem::Cell> cells(static_cast<std::size_t>(registers * perRegister));
    return FragmentLayout::generate(
        Operand::D, packed ? ElementType::F16 : ElementType::F32, packed ? 16 : 32, 32, shape,
        [&](int thread, std::span<Cell> out) {
            map.threadCells(thread, cells);
            for (std::size_t i = 0; i < out.size(); ++i)
                out[i] = Cell{cells[i].lane, cells[i].column};
        },
        rec.source);
}

// tcgen05.ld writes the registers (D), tcgen05.st reads them (A).
// .num repeats the shape's registers along the columns (Table 49), so the registers of .xN are the leading
// registers of the widest .num. As for the wgmma D (atom.cpp accumulatorLayout), the first access of a shape
// and packing asked for is built alone (a command builds the one it names); from the second on, as when the
// catalog builds every .num, each is cut from the widest instead of evaluated again. Not .16x32bx2: its
// second half sits immHalfSplitoff columns away, which moves with .num. Both give the same table
// (tests/core/test_tcgen05.cpp).
FragmentLayout accessLayout(const tmem::Access& access) {
    using Key = std::tuple<tmem::Shape, int, bool, int>;
    static detail::SharedCache<Key, FragmentLayout, true> cache;
    static detail::SharedCache<std::pair<tmem::Shape, bool>, bool, true> asked;
    const auto build = [](const tmem::Access& a) {
        return cache.get(Key{a.shape, a.num, a.packed, a.split}, [&] { return buildAccessLayout(a); });
    };
    const tmem::ShapeRecord& rec = tmem::recordOf(access.shape);
    bool first = false;
    asked.get({access.shape, access.packed}, [&] { return first = true; });
    const auto layout = cache.get(Key{access.shape, access.num, access.packed, access.split}, [&] {
        if (rec.halfSplit || first || access.num == rec.maxNum)
            return buildAccessLayout(access);
        tmem::Access widest = access;
        widest.num = rec.maxNum;
        return FragmentLayout::leadingRegisters(*build(widest), tmem::registersOf(access),
                                                tmem::columnsOf(access));
    });
    return layout->asOperand(access.op == tmem::Op::Ld ? Operand::D : Operand::A);
}

} // namespace

namespace tmem {

const Access* accessOf(const Variant& variant) {
    return std::any_cast<Access>(&variant.facts);
}

const MmaShape* mmaOf(const Variant& variant) {
    return std::any_cast<MmaShape>(&variant.facts);
}

// "" when `split` is a valid immHalfSplitoff of `entry` (a .16x32bx2 tcgen05.ld/st), else what is wrong
// and what is valid.
std::string checkHalfSplit(const Instruction& entry, int split) {
    if (!accessOf(entry) || !recordOf(accessOf(entry)->shape).halfSplit)
        return "immHalfSplitoff applies to the .16x32bx2 shape of tcgen05.ld and tcgen05.st only; '" +
               entry.spec + "' is not one (e.g. tcgen05.ld.16x32bx2.x2)";
    Access access = *accessOf(entry);
    access.split = split;
    const int half = halfColumnsOf(access);
    if (split < half || split > kColumns - half) // not split + half: that overflows near INT_MAX
        return "immHalfSplitoff " + std::to_string(split) + " out of range for " + entry.spec + ": valid " +
               std::to_string(half) + " to " + std::to_string(kColumns - half) +
               " (32-bit columns; the halves must not overlap and must fit the 512 columns)";
    return {};
}

// Replaces the register fragment of `in` by the one at immHalfSplitoff `split` (checked first).
void applyHalfSplit(Instruction& in, int split) {
    Access access = *accessOf(in);
    access.split = split;
    in.n = columnsOf(access);
    in.operands = {accessLayout(access)};
    in.notes.push_back("immHalfSplitoff " + std::to_string(split) + " (given): threads 16-31 at taddr + " +
                       std::to_string(split) + " columns");
}

const std::vector<ShapeRecord>& shapeRecords() {
    return kShapeTable;
}
const std::vector<LayoutRecord>& layoutRecords() {
    return kLayoutTable;
}

} // namespace tmem

void registerTcgen05(Catalog& catalog) {
    for (const tmem::Op op : {tmem::Op::Ld, tmem::Op::St})
        for (const tmem::ShapeRecord& rec : kShapeTable)
            for (const int num : tmem::validNums(rec.shape))
                for (const bool packed : {false, true}) {
                    const tmem::Access access{op, rec.shape, num, packed};
                    Variant v;
                    v.spec = tmem::specOf(access);
                    v.ptx = tmem::ptxOf(access);
                    v.family = op == tmem::Op::Ld ? &family::kTcgen05Ld : &family::kTcgen05St;
                    v.threads = 32;
                    v.m = rec.lanes;
                    v.n = tmem::columnsOf(access);
                    v.atype = v.btype = v.ctype = v.dtype = packed ? ElementType::F16 : ElementType::F32;
                    v.minSm = 100;
                    v.section = "9.7.16.8.3";
                    v.anchor = op == tmem::Op::Ld ? "tcgen05-instructions-tcgen05-ld"
                                                  : "tcgen05-instructions-tcgen05-st";
                    Form form;
                    form.atype = form.btype = v.atype;
                    v.forms = {form};
                    v.notes.emplace_back(kNotOnHardware);
                    if (rec.lanes == 16)
                        v.notes.emplace_back(kHalfSelect);
                    if (rec.halfSplit)
                        v.notes.emplace_back(kSplit);
                    if (packed)
                        v.notes.emplace_back(kPackOrder);
                    v.facts = access;
                    catalog.add(std::move(v), [](Instruction& in) {
                        in.operands.push_back(accessLayout(*tmem::accessOf(in)));
                    });
                }
    // tcgen05.mma: one entry per kind x M x cta_group x .ws x sparse (x lane alignment for the half-datapath
    // layouts); N is a parameter of the spec (m128n64), the entry stands for every valid N and shows the
    // largest.
    for (const tmem::MmaKind kind : tmem::kMmaKinds)
        for (const tmem::LayoutRecord& rec : kLayoutTable)
            for (const bool ws : {false, true})
                for (const bool sparse : {false, true})
                    for (const int alignment : {0, 16}) {
                        if ((rec.ws == Need::Yes && !ws) || (rec.ws == Need::No && ws) ||
                            (rec.sparse == Need::Yes && !sparse) || (rec.sparse == Need::No && sparse))
                            continue;
                        if ((alignment && !rec.halfDatapath) || (ws && !tmem::supportsWs(kind)))
                            continue;
                        tmem::MmaShape shape{kind, rec.m, 256, rec.ctaGroup, ws, sparse, alignment};
                        shape.n = tmem::validN(shape).last;
                        if (!tmem::validate(shape).empty())
                            continue;
                        const tmem::MmaShape& stored = shape;
                        Variant v;
                        v.spec = tmem::specOf(stored, false);
                        v.ptx = tmem::ptxOf(stored);
                        v.family = &family::kTcgen05Mma;
                        v.scope = Scope::Warpgroup;
                        v.threads = 128;
                        v.m = stored.m;
                        v.n = stored.n;
                        v.k = tmem::kOf(kind, sparse);
                        v.sparse = sparse;
                        v.minSm = 100;
                        v.section = "9.7.16.10.5";
                        v.anchor = "tcgen05-data-path-layout-organization";
                        Form form;
                        form.atype = form.btype = v.atype;
                        v.forms = {form};
                        v.notes.emplace_back(kNotOnHardware);
                        v.notes.push_back("data-path layout " + std::string(toString(rec.layout)) + " (" +
                                          std::string(rec.organisation) + "), " + std::string(rec.figure));
                        v.facts = stored;
                        // D lives in Tensor Memory, not in registers: the entry has no register fragment of
                        // its own; `show --ld` composes it with a tcgen05.ld (tmem.hpp whoHoldsD).
                        catalog.add(std::move(v), [](Instruction&) {});
                    }
}

namespace family {

namespace {
std::string accessShape(const Variant& v) {
    return std::string(tmem::toString(tmem::accessOf(v)->shape)); // a data-path shape, not a matrix: 16x256b
}
std::string accessPtx(const Variant& v, const Form&) {
    return tmem::ptxOf(*tmem::accessOf(v));
}

// tcgen05.ld / tcgen05.st take immHalfSplitoff (the .16x32bx2 shape only).
std::string validateAccess(const Instruction& entry, const Params& p) {
    if (std::string why = refuseOthers(entry, p, TakesHalfSplit); !why.empty())
        return why;
    return p.halfSplit ? tmem::checkHalfSplit(entry, *p.halfSplit) : std::string();
}

// The register fragment of an access spans Tensor Memory lanes and columns, not a matrix's M and N.
void instantiateAccess(Instruction& in) {
    if (in.params.halfSplit) {
        tmem::applyHalfSplit(in, *in.params.halfSplit);
        placeRegisters(in);
    }
    for (Placement& p : in.placements) {
        Presentation words;
        words.rowAxis = "TMEM lane";
        words.colAxis = "TMEM column";
        words.extentTitle = std::to_string(p.rows()) + " TMEM lanes \u00d7 " + std::to_string(p.cols()) +
                            " TMEM columns (offsets from taddr)";
        words.extentFact = std::to_string(in.m) + " TMEM lanes \u00d7 " + std::to_string(in.n) + " columns";
        p.setPresentation(std::move(words));
    }
}

// A tcgen05.mma entry stands for every valid N; it takes N, the operand in Tensor Memory, the access it is
// composed with and the block scale.
std::string validateMma(const Instruction& entry, const Params& p) {
    if (std::string why = refuseOthers(entry, p, TakesN | TakesTensorMemory | TakesTile); !why.empty())
        return why;
    if (std::string why = validate(entry, viewOptionsOf(p)); !why.empty())
        return why;
    if (!p.tile)
        return {};
    // A tile places D in Tensor Memory and A and B in shared memory, per CTA; the composed registers, A in
    // Tensor Memory and the scale factors belong to one instruction's view.
    if (p.access || p.tensorOperand != Operand::D || p.blockScale)
        return "a tile of tcgen05.mma atoms (--atom-layout, --permutation) places D in Tensor Memory and A "
               "and "
               "B in shared memory, per CTA; --ld, --st and the block scale (--scale-vec, --sfa-id, "
               "--sfb-id) "
               "describe one instruction: give them without a tile";
    return tile::validateOverCtas(shapeOf(entry, viewOptionsOf(p)), *p.tile);
}

// N is a parameter of the entry (it stands for every N; one that names its N, even the entry's own, is a
// view of that N). A new N opens with the access that fits it best (an x32 load kept for N = 16 would draw
// registers r16..r31 empty).
Selection atN(const Selection& selection, int n) {
    const Instruction& entry = Catalog::instance().instruction(*selection.variant);
    Selection at = selection;
    at.params.n = n;
    tmem::MmaShape shape = *tmem::mmaOf(entry);
    const int current = selection.params.n > 0 ? selection.params.n : shape.n;
    shape.n = n;
    if (at.params.access && n != current && tmem::validate(shape).empty())
        at.params.access =
            defaultAccess(shape, at.params.tensorOperand == Operand::A ? tmem::Op::St : tmem::Op::Ld);
    return at;
}

// D (or A) where the data-path layout puts it, at the instance's N, and the registers of the access it is
// composed with.
void instantiateMma(Instruction& in) {
    const TensorMemoryOptions view = viewOptionsOf(in.params);
    const tmem::MmaShape shape = shapeOf(in, view);
    in.n = shape.n;
    const bool a = in.params.tensorOperand == Operand::A;
    const int bits = a                                              ? tmem::aElementBits(shape.kind)
                     : in.params.access && in.params.access->packed ? 16
                                                                    : 32;
    Placement tensor = Placement::tensorMemory({shape, in.params.tensorOperand, bits});
    if (in.params.access)
        in.placements.push_back(compose(tensor, *in.params.access));
    in.placements.insert(in.placements.begin(), std::move(tensor));
}
// A or B of a tcgen05.mma in shared memory, as its shared-memory descriptor reads it (§9.7.16.10.6, the
// canonical layouts wgmma shares, plus the 128B-32B swizzle): one CTA's part — with cta_group::2 each CTA
// of the pair holds M/2 rows of A and N/2 columns of B — over a whole number of tiles (lanemap/feeds.hpp).
bool mmaSharedOperand(const Instruction& in, Operand operand, const smem::Choice& choice, int rows, int cols,
                      Placement& out, std::string& error) {
    const tmem::MmaShape* catalogShape = tmem::mmaOf(in);
    if (!catalogShape || (operand != Operand::A && operand != Operand::B)) {
        error = "a tcgen05.mma reads A and B from shared memory, not " + std::string(toString(operand));
        return false;
    }
    tmem::MmaShape shape = *catalogShape;
    shape.n = in.tile ? in.tile->atomShape[tile::N] : in.n; // a tile's n is the tile's
    const int bits = tmem::aElementBits(shape.kind);
    const int k = tmem::kOf(shape.kind, shape.sparse);
    const int m = shape.m / shape.ctaGroup, n = shape.n / shape.ctaGroup;
    const bool a = operand == Operand::A;
    smem::SharedOperand op{
        operand,       a ? in.atype : in.btype, a ? m : k, a ? (shape.sparse ? k / 2 : k) : n,
        a ? 'm' : 'n', a && shape.sparse,       {}};
    if (rows == 0 && cols == 0) {
        rows = op.rows;
        cols = op.cols;
    }
    if (rows <= 0 || cols <= 0 || rows % op.rows != 0 || cols % op.cols != 0) {
        error = "an extent of " + std::to_string(rows) + " x " + std::to_string(cols) +
                " is not a whole number of " + in.spec + "'s " + std::to_string(op.rows) + " x " +
                std::to_string(op.cols) + " " + std::string(toString(operand)) + " tiles";
        return false;
    }
    op.rows = rows;
    op.cols = cols;
    const smem::Coord extent = op.toLayout(rows, cols);
    try {
        op.layout = smem::SmemLayout::make(bits, extent.mn, extent.k, choice.major, choice.swizzle);
    } catch (const std::invalid_argument& e) {
        error = e.what();
        return false;
    }
    out = Placement::sharedMemory(op);
    return true;
}

} // namespace

// tcgen05.ld and tcgen05.st share one grammar and one access table; only their names differ.
namespace {
Family accessRow(std::string_view name) {
    return {.name = name,
            .registerTable = registerTcgen05,
            .ptx = accessPtx,
            .shape = accessShape,
            .claims = isTcgen05Text,
            .parse = parseTcgen05Spec,
            .validate = validateAccess,
            .instantiate = instantiateAccess};
}

// The part of A or B each CTA of the mma's group reads through its descriptor (lanemap/cta_parts.hpp): the
// family's shared operand over that CTA's part, one per CTA of cta_group.
std::optional<CtaParts> mmaCtaParts(const Instruction& in, Operand operand) {
    const tmem::MmaShape* mma = tmem::mmaOf(in);
    if (!mma || (operand != Operand::A && operand != Operand::B))
        return std::nullopt;
    if (in.placement(Space::TensorMemory, operand)) // A in Tensor Memory (--st): not read from shared memory
        return std::nullopt;
    Placement part;
    std::string error;
    if (!mmaSharedOperand(in, operand, in.params.smem.value_or(smem::Choice{}), 0, 0, part, error) ||
        !part.shared())
        return std::nullopt;
    return CtaParts{*part.shared(), mma->ctaGroup};
}
} // namespace
const Family kTcgen05Ld = accessRow("tcgen05.ld");
const Family kTcgen05St = accessRow("tcgen05.st");
const Family kTcgen05Mma{
    .name = "tcgen05.mma",
    .registerTable = registerTcgen05,
    .ptx = [](const Variant& v, const Form&) { return tmem::ptxOf(*tmem::mmaOf(v)); },
    .shape = [](const Variant& v) { return shapeWord(v.m, v.n, v.k); },
    .claims = isTcgen05Text,
    .parse = parseTcgen05Spec,
    .validate = validateMma,
    .instantiate = instantiateMma,
    .searchWords =
        [](const Variant& v) {
            // Every N the entry takes: "tcgen05 m128n16" finds it (the N box's shapes).
            std::vector<std::string> words;
            for (const int n : tmem::validN(*tmem::mmaOf(v)).values())
                words.push_back("m" + std::to_string(v.m) + "n" + std::to_string(n));
            return words;
        },
    .nValues = [](const Instruction& entry) { return tmem::validN(*tmem::mmaOf(entry)).values(); },
    .atN = atN,
    .sharedOperand = mmaSharedOperand,
    .ctaParts = mmaCtaParts};

} // namespace family

} // namespace lanemap
