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

#include "lanemap/catalog.hpp"
#include "lanemap/tcgen05_split.hpp"
#include "lanemap/tmem.hpp"

#include <deque>
#include <mutex>
#include <string>

namespace lanemap {

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

// Catalog entries keep their access / mma facts here (stable addresses, like the matrix-move table).
std::deque<tmem::Access>& accessStore() {
    static std::deque<tmem::Access> store;
    return store;
}
std::deque<tmem::MmaShape>& mmaStore() {
    static std::deque<tmem::MmaShape> store;
    return store;
}

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

FragmentLayout accessLayout(const tmem::Access& access) {
    const bool packed = access.packed;
    const int registers = tmem::registersOf(access);
    const int perRegister = tmem::elementsPerRegister(access);
    const tmem::ShapeRecord& rec = tmem::recordOf(access.shape);
    FragmentShape shape{rec.lanes, tmem::columnsOf(access), 1, registers, 32, perRegister};
    std::vector<Cell> cells;
    cells.reserve(static_cast<std::size_t>(32 * registers * perRegister));
    for (int thread = 0; thread < 32; ++thread)
        for (int reg = 0; reg < registers; ++reg)
            for (int half = 0; half < perRegister; ++half) {
                const tmem::Cell c = tmem::cellOf(access, thread, reg, half);
                cells.push_back({c.lane, c.column, -1, -1});
            }
    return FragmentLayout::fromCells(access.op == tmem::Op::Ld ? Operand::D : Operand::A,
                                     packed ? ElementType::F16 : ElementType::F32, packed ? 16 : 32, 32,
                                     shape, cells, rec.source);
}

} // namespace

namespace tmem {

bool withHalfSplitoff(const Instruction& entry, int split, Instruction& out, std::string& error) {
    if (!entry.tmemAccess || !recordOf(entry.tmemAccess->shape).halfSplit) {
        error = "immHalfSplitoff applies to the .16x32bx2 shape of tcgen05.ld and tcgen05.st only; '" +
                entry.spec + "' is not one (e.g. tcgen05.ld.16x32bx2.x2)";
        return false;
    }
    Access access = *entry.tmemAccess;
    access.split = split;
    const int half = halfColumnsOf(access);
    // Compared as `split > kColumns - half`: `split + half` overflows for a split near INT_MAX.
    if (split < half || split > kColumns - half) {
        error = "immHalfSplitoff " + std::to_string(split) + " out of range for " + entry.spec + ": valid " +
                std::to_string(half) + " to " + std::to_string(kColumns - half) +
                " (32-bit columns; the halves must not overlap and must fit the 512 columns)";
        return false;
    }
    out = entry;
    out.n = columnsOf(access);
    out.operands = {accessLayout(access)};
    out.notes.push_back("immHalfSplitoff " + std::to_string(split) + " (given): threads 16-31 at taddr + " +
                        std::to_string(split) + " columns");
    return true;
}

const std::vector<ShapeRecord>& shapeRecords() {
    return kShapeTable;
}
const std::vector<LayoutRecord>& layoutRecords() {
    return kLayoutTable;
}

} // namespace tmem

void registerTcgen05(Catalog& catalog) {
    static std::mutex storeMutex; // registration runs once per catalog; tests build several catalogs
    const std::lock_guard lock(storeMutex);
    for (const tmem::Op op : {tmem::Op::Ld, tmem::Op::St})
        for (const tmem::ShapeRecord& rec : kShapeTable)
            for (const int num : tmem::validNums(rec.shape))
                for (const bool packed : {false, true}) {
                    const tmem::Access& access =
                        accessStore().emplace_back(tmem::Access{op, rec.shape, num, packed});
                    Variant v;
                    v.spec = tmem::specOf(access);
                    v.ptx = tmem::ptxOf(access);
                    v.family = op == tmem::Op::Ld ? Family::Tcgen05Ld : Family::Tcgen05St;
                    v.threads = 32;
                    v.m = rec.lanes;
                    v.n = tmem::columnsOf(access);
                    v.atype = v.btype = v.ctype = v.dtype = packed ? ElementType::F16 : ElementType::F32;
                    v.minSm = 100;
                    v.num = num;
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
                    v.tmemAccess = &access;
                    catalog.add(std::move(v),
                                [&access](Instruction& in) { in.operands.push_back(accessLayout(access)); });
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
                        const tmem::MmaShape& stored = mmaStore().emplace_back(shape);
                        Variant v;
                        v.spec = tmem::specOf(stored, false);
                        v.ptx = tmem::ptxOf(stored);
                        v.family = Family::Tcgen05Mma;
                        v.scope = Scope::Warpgroup;
                        v.threads = 128;
                        v.m = stored.m;
                        v.n = stored.n;
                        v.k = tmem::kOf(kind, sparse);
                        v.minSm = 100;
                        v.section = "9.7.16.10.5";
                        v.anchor = "tcgen05-data-path-layout-organization";
                        Form form;
                        form.atype = form.btype = v.atype;
                        v.forms = {form};
                        v.notes.emplace_back(kNotOnHardware);
                        v.notes.push_back("data-path layout " + std::string(toString(rec.layout)) + " (" +
                                          std::string(rec.organisation) + "), " + std::string(rec.figure));
                        v.tmemMma = &stored;
                        // D lives in Tensor Memory, not in registers: the entry has no register fragment of
                        // its own; `show --ld` composes it with a tcgen05.ld (tmem.hpp whoHoldsD).
                        catalog.add(std::move(v), [](Instruction&) {});
                    }
}

} // namespace lanemap
