// The one registration path of every family (atom.hpp), and the rules that attach notes and errata to
// variants: each note and each erratum is written once here and selected by a predicate over the variant's
// typed facts.

#include "families/atom/atom.hpp"
#include "families/params_check.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/sparse.hpp"
#include "model/build_cache.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace lanemap::family {

using T = ElementType;

namespace {

bool isWarpgroup(const Family* f) {
    return f == &kWgmma || f == &kWgmmaSp;
}
bool isFp8(T t) {
    return t == T::E4M3 || t == T::E5M2;
}
bool isMixedSign(T t) {
    return t == T::S8 || t == T::U8 || t == T::S4 || t == T::U4;
}
bool isShape(const Variant& v, int m, int n, int k) {
    return v.m == m && v.n == n && v.k == k;
}

// The types PTX lets B take with a given A type (same layout).
std::vector<T> mixPartners(T a) {
    std::vector<T> out;
    for (T b : {T::S8, T::U8, T::S4, T::U4, T::E4M3, T::E5M2})
        if (b != a && sameMixGroup(a, b))
            out.push_back(b);
    return out;
}

// --- notes: one rule per fact
// ----------------------------------------------------------------------------------
struct NoteRule {
    bool (*applies)(const Variant&);
    std::string (*text)(const Variant&);
};

// clang-format off
const std::array kNoteRules{
    NoteRule{[](const Variant& v) { return v.family == &kMma && v.atype == T::B1; },
             [](const Variant& v) -> std::string { return v.minSm < 80 ? "`.xor.popc` needs sm_75, `.and.popc` needs sm_80; the layout is the same"
                                                                        : "`.xor.popc` and `.and.popc` share this layout"; }},
    NoteRule{[](const Variant& v) { return v.family == &kWgmma && v.atype == T::B1; },
             [](const Variant&) -> std::string { return "only .and.popc exists for wgmma .b1 (no .xor)"; }},
    NoteRule{[](const Variant& v) { return v.kind == Kind::None && isFp8(v.atype); },
             [](const Variant&) -> std::string { return "A and B may mix .e4m3 and .e5m2; the layout is the same"; }},
    NoteRule{[](const Variant& v) { return isMixedSign(v.atype); },
             [](const Variant&) -> std::string { return "A and B may mix signed and unsigned types; the layout is the same (.satfinite does not change it either)"; }},
    NoteRule{[](const Variant& v) { return v.family == &kMma && v.kind == Kind::F8F6F4; },
             [](const Variant&) -> std::string { return "sm_120 family only (.kind::f8f6f4); every element sits in an 8-bit container"; }},
    NoteRule{[](const Variant& v) { return v.family == &kMma && isShape(v, 8, 8, 4) && v.atype == T::F16; },
             [](const Variant&) -> std::string { return "Volta quad-pair: four independent 8x8x4 products per warp; product q uses lanes 4q..4q+3 (low group) and 16+4q..16+4q+3 (high group)"; }},
    NoteRule{[](const Variant& v) { return v.family == &kMma && isShape(v, 8, 8, 4) && v.atype == T::F16; },
             [](const Variant&) -> std::string { return "optimized for sm_70; may have substantially reduced performance on other targets (CUDA 13 cannot target sm_70; ptxas accepts sm_75 and later)"; }},
    NoteRule{[](const Variant& v) { return v.family == &kMmaSp; },
             [](const Variant&) -> std::string { return "A is compressed: each thread holds the kept (non-zero) elements of the chunks of its column range [firstcol..lastcol]; the metadata operand says which columns"; }},
    NoteRule{[](const Variant& v) { return v.family == &kMmaSp && !v.ordered; },
             [](const Variant&) -> std::string { return "plain mma.sp may have substantially reduced performance on some targets; PTX advises mma.sp::ordered_metadata (same layout, sorted indices)"; }},
    NoteRule{[](const Variant& v) { return v.family == &kMmaSp && v.ordered; },
             [](const Variant&) -> std::string { return "::ordered_metadata: the indices of each chunk must be sorted, increasing from the LSB"; }},
    NoteRule{[](const Variant& v) { return v.family == &kMmaSp && v.kind != Kind::None; },
             [](const Variant& v) { return "sm_120 family only (.kind::" + std::string(toString(v.kind)) + "); A and B may be any pair of " +
                                           (v.k == 128 ? "e2m1 (packed 4-bit)" : ".e4m3/.e5m2/.e3m2/.e2m3/.e2m1, each in an 8-bit container"); }},
    NoteRule{[](const Variant& v) { return v.family == &kMmaSp && v.kind == Kind::F8F6F4; },
             [](const Variant&) -> std::string { return "ptxas 13.0 also accepts .e4m3/.e5m2-only operands with .f32 accumulation for sm_100a/100f/103a/110a (erratum E15)"; }},
    NoteRule{[](const Variant& v) { return v.forms.front().scaleVec != ScaleVec::None; },
             [](const Variant& v) {
                 std::string forms;
                 for (const Form& f : v.forms)
                     ((forms += forms.empty() ? "" : ", ") += toString(f.scaleVec)) += " ." + std::string(toString(f.scaleType));
                 return "block scaling: extra operands scale-a-data, {byte-id-a, thread-id-a}, scale-b-data, {byte-id-b, thread-id-b}; the scale-factor operands are not drawn yet; PTX forms: " + forms; }},
    NoteRule{[](const Variant& v) { return v.kind == Kind::MXF4 || v.kind == Kind::MXF4NVF4; },
             [](const Variant&) -> std::string { return "sm_120a and sm_121a only (not the sm_120f family)"; }},
    NoteRule{[](const Variant& v) { return isWarpgroup(v.family); },
             [](const Variant&) -> std::string { return "sm_90a only (ptxas 13.0 rejects sm_90, sm_100a and sm_120a)"; }},
    NoteRule{[](const Variant& v) { return isWarpgroup(v.family); },
             [](const Variant& v) -> std::string { return "A comes from registers (shown) or from shared memory through a descriptor; B always comes from shared memory (see the shared-memory view: the app's pane, B in an exported SVG, or lanemap-cli show " + v.spec + " --operand B)"; }},
    NoteRule{[](const Variant& v) { return isWarpgroup(v.family); },
             [](const Variant& v) -> std::string { return traits(v.atype).bits == 16 ? "imm-trans-a/imm-trans-b select MN-major A (shared memory only) and N-major B; the default is K-major"
                                                                                     : "K-major shared memory only (no imm-trans operands for this type)"; }},
    NoteRule{[](const Variant& v) { return v.family == &kWgmma && v.atype == T::B1; },
             [](const Variant&) -> std::string { return "the A layout is inferred: mma.m16n8k256 .b1 A (erratum E1 corrected) per warp; Fig. 154 could not be read and CUTLASS has no register-A layout for it"; }},
    NoteRule{[](const Variant& v) { return v.family == &kWgmmaSp; },
             [](const Variant&) -> std::string { return "sparse A in registers holds the non-zeros of each chunk of a row; shared-memory A is the compressed M x K/2 matrix"; }},
};
// clang-format on

// --- errata: each written once, attached by a predicate (docs/reference/errata.md)
// -------------------------------
Cell manualE1(const Lane& l, int i, int) {
    // The manual's literal first branch: col = threadID_in_group * 32 + i for i < 64.
    return {(i < 32 || (64 <= i && i < 96)) ? l.groupID : l.groupID + 8,
            i < 64 ? l.threadID_in_group * 32 + i : l.threadID_in_group * 32 + (i & 0x1F) + 128};
}

struct ErratumRule {
    Erratum erratum;
    bool (*applies)(const Variant&);
};

// clang-format off
const std::array kErrata{
    ErratumRule{{"E1", "mma.m16n8k256 .b1: the A column formula overlaps itself",
                 "col = (threadID_in_group * 32) + i for ai where i < 64 — for 32 <= i < 64 this gives columns 32..159, overlapping the i >= 64 branch and breaking the row g / g+8 split",
                 "col = (threadID_in_group * 32) + (i & 0x1F) for i < 64, as in m16n8k128: the only reading that covers the 16x256 tile exactly once",
                 "the manual's formula places 64 elements of each row twice and leaves others empty; m16n8k128 masks i the same way",
                 ErratumStatus::Suspected, AlternativePlacement{Operand::A, manualE1}},
                [](const Variant& v) { return v.family == &kMma && isShape(v, 16, 8, 256); }},
    ErratumRule{{"E2", "mma.m16n8k16 .f64: unbalanced parenthesis in the A column formula",
                 "(i * 2) - 2 + (threadID_in_group      Otherwise", "(i * 2) - 2 + threadID_in_group for odd i",
                 "the only balanced reading; it covers the tile exactly once", ErratumStatus::Suspected, std::nullopt},
                [](const Variant& v) { return v.family == &kMma && isShape(v, 16, 8, 16) && v.atype == T::F64; }},
    ErratumRule{{"E3", "mma .f64 syntax lists shape .m8n84",
                 ".shape = {.m8n84, .m16n8k4, .m16n8k8, .m16n8k16}; the .rnd qualifier is missing from the syntax",
                 ".m8n8k4 (ptxas accepts .m8n8k4 and .rn/.rz/.rm/.rp)", "ptxas 13.0 acceptance", ErratumStatus::Confirmed, std::nullopt},
                [](const Variant& v) { return v.family == &kMma && v.atype == T::F64; }},
    ErratumRule{{"E4", "mma.m16n8k16 integer section: .f16 accumulator element list reads c0, c1, c1, c2",
                 "c0, c1, c1, c2", "c0, c1, c2, c3 (two .f16x2 registers, four elements)",
                 "register count: two .f16x2 registers hold four distinct elements", ErratumStatus::Suspected, std::nullopt},
                [](const Variant& v) { return v.family == &kMma && isShape(v, 16, 8, 16) && isFp8(v.atype) && v.ctype == T::F16; }},
    ErratumRule{{"E8", "sparse mma.m16n8k16 .tf32: B fragment says four .tf32 elements per register",
                 "four .b32 registers, each containing four .tf32 elements from matrix B",
                 "four registers with one .tf32 element each (16x8 / 32 lanes = 4 elements per thread)",
                 "element count of the 16x8 B tile", ErratumStatus::Suspected, std::nullopt},
                [](const Variant& v) { return v.family == &kMmaSp && isShape(v, 16, 8, 16) && v.atype == T::TF32; }},
    ErratumRule{{"E9", "sparse mma.m16n8k32 .f16/.bf16: B element list stops at b3",
                 "four .b32 registers each containing two elements; elements b0, b1, b2, b3",
                 "b0..b7 (four registers x two elements)", "element count of the 32x8 B tile", ErratumStatus::Suspected, std::nullopt},
                [](const Variant& v) { return v.family == &kMmaSp && isShape(v, 16, 8, 32) && traits(v.atype).bits == 16; }},
    ErratumRule{{"E10", "sparse fp8 with .f16 accumulation: the notes name shape .m16n8k32",
                 "shape .m16n8k32 and .f16 dtype/ctype with .e4m3/.e5m2 requires sm_120",
                 "listed as m16n8k64 with .f16 accumulation, ::ordered_metadata only, min SM 120: no sparse m16n8k32 fp8 shape exists in the syntax or the shape table",
                 "ptxas 13.0 rejects every sparse m16n8k32 fp8 form and accepts m16n8k64 fp8 .f16 only as ::ordered_metadata on sm_120a/120f/121a",
                 ErratumStatus::Suspected, std::nullopt},
                [](const Variant& v) { return v.family == &kMmaSp && v.kind == Kind::None && isFp8(v.atype) && v.ctype == T::F16; }},
    ErratumRule{{"E11", "sparse wgmma m64nNk64: the metadata operand is described as 16 4-bit vectors",
                 "Metadata operand is a .b32 register containing 16 4-bit vectors each storing the indices of two non-zero elements of a 4-wide chunk of matrix A (64 bits in a 32-bit register)",
                 "8 4-bit fields per thread, each holding the two 2-bit indices of one 4-wide chunk; the four lanes of a quad together cover two rows x 64 columns (Figs. 180/181, CUTLASS ELayout_64x64)",
                 "register width; CUTLASS mma_traits_sm90_gmma_sparse.hpp", ErratumStatus::Suspected, std::nullopt},
                [](const Variant& v) { return v.family == &kWgmmaSp && v.k == 64; }},
    ErratumRule{{"E13", "wgmma integer shapes: the .shape list of the syntax stops at m64n224k32",
                 "syntax: .shape = {.m64n8k32, ..., .m64n224k32}; the Matrix Shape table and the D fragment rule (N = 16*i, i = 3..16) include n240 and n256",
                 "n240 and n256 are listed (ptxas 13.0 accepts m64n240k32 and m64n256k32 .s8/.u8)",
                 "ptxas 13.0 acceptance; the shape table", ErratumStatus::Confirmed, std::nullopt},
                [](const Variant& v) { return v.family == &kWgmma && v.k == 32 && !traits(v.atype).floating && v.n >= 240; }},
    ErratumRule{{"E14", "fp8 mma.m16n8k16 (and f16 accumulation): target architecture not stated",
                 "PTX 8.7 adds .m16n8k16 with .e4m3/.e5m2 and .f16 accumulation; the target notes only say e4m3/e5m2 requires sm_89",
                 "listed with min SM 89 (ptxas 13.0 accepts it for sm_89/sm_90/sm_90a)", "ptxas 13.0 acceptance",
                 ErratumStatus::Confirmed, std::nullopt},
                [](const Variant& v) { return v.family == &kMma && isShape(v, 16, 8, 16) && isFp8(v.atype); }},
};
// clang-format on

std::string familyName(const Family* family, bool ordered) {
    if (family == &kMmaSp && ordered)
        return "mma.sp::ordered_metadata";
    return std::string(family->name);
}

// family.shape[.alayout.blayout][.kind::k].atype[.ctype][.dtype]: the C type only where it is not the default
// or differs from D.
std::string specOf(const Variant& v, bool layoutsInSpec) {
    std::string s = familyName(v.family, v.ordered);
    (s += '.') += shapeName(v);
    if (layoutsInSpec)
        (((s += '.') += toString(v.alayout)) += '.') += toString(v.blayout);
    if (v.kind != Kind::None)
        (s += ".kind::") += toString(v.kind);
    (s += '.') += toString(v.atype);
    if (v.ctype != traits(v.atype).accumulator || v.dtype != v.ctype)
        (s += '.') += toString(v.ctype);
    if (v.dtype != v.ctype)
        (s += '.') += toString(v.dtype);
    return s;
}

std::vector<Form> formsOf(const Atom& atom, T a) {
    const B1Op b1 = a != T::B1 ? B1Op::None : atom.family == &kMma ? B1Op::Xor : B1Op::And;
    Form canonical{a, a, b1, ScaleVec::None, T::UE8M0};
    if (!atom.scale.empty())
        canonical.scaleVec = atom.scale.front().vec, canonical.scaleType = atom.scale.front().scaleType;
    std::vector<Form> forms{canonical};
    for (std::size_t i = 1; i < atom.scale.size(); ++i) {
        Form f = canonical;
        f.scaleVec = atom.scale[i].vec;
        f.scaleType = atom.scale[i].scaleType;
        forms.push_back(f);
    }
    if (atom.kind == Kind::None)
        for (T b : mixPartners(a)) {
            Form f = canonical;
            f.btype = b;
            forms.push_back(f);
        }
    if (b1 == B1Op::Xor) {
        Form f = canonical;
        f.b1 = B1Op::And;
        forms.push_back(f);
    }
    return forms;
}

} // namespace

int containerPad(ElementType type, int containerBits) {
    return containerBits == 8 && type == T::E2M1 ? 2 : 0;
}

FragmentLayout makeOperand(Operand operand, ElementType type, int threads, const Fragment& fragment, int n) {
    const int container = fragment.shape.registerBits / fragment.shape.elementsPerRegister;
    return FragmentLayout::build(operand, type, traits(type).bits, threads, fragment.shape, fragment.place, n,
                                 fragment.source, containerPad(type, container));
}

namespace {
// D: for an atom of several N (wgmma) the figures draw the widest fragment and every narrower one is its
// leading registers. The first N of a D formula and type asked for is built alone: a command builds the one
// instruction it names (an m64n8 D is 512 elements, the m64n256 one it would be cut from 16,384). From the
// second on, as when the catalog builds every variant, each N is cut from the widest instead of being built
// again. Both give the same table (tests/core/test_wgmma.cpp).
FragmentLayout accumulatorLayout(const Atom& atom, const Instruction& in) {
    const Fragment fragment = atom.cd(in.dtype, in.n);
    static detail::SharedCache<std::pair<PlaceFn, ElementType>, bool, true> asked;
    bool first = false;
    asked.get({fragment.place, in.dtype}, [&] { return first = true; });
    if (atom.ns.size() == 1 || first)
        return makeOperand(Operand::D, in.dtype, in.threads, fragment, in.n);
    const int widest = atom.ns.back();
    const FragmentLayout full =
        makeOperand(Operand::D, in.dtype, in.threads, atom.cd(in.dtype, widest), widest);
    return FragmentLayout::leadingRegisters(full, fragment.shape.registers, in.n);
}
} // namespace

MetadataLayout buildMetadata(const MetadataFigure& figure, int containerBits, bool ordered, int k, int warps,
                             bool resolvedOnHardware) {
    const sparse::StorageRule* rule = sparse::ruleForContainerBits(containerBits);
    if (!rule)
        throw std::logic_error("no sparsity rule for " + std::to_string(containerBits) + "-bit A elements");
    MetadataLayout md;
    md.granularity = rule->granularity;
    md.indexBits = rule->indexBits;
    md.chunkCols = rule->chunkCols;
    md.fieldBits = rule->fieldBits;
    md.validValues = sparse::validFieldValues(rule->pattern, ordered);
    const int fieldsPerWord = 32 / rule->fieldBits;
    auto selectorsOf = [&](const MetadataReading& reading) {
        std::vector<MetadataSelector> out;
        for (int F : figure.selectors) {
            MetadataSelector sel{F, {}};
            sel.fields.reserve(static_cast<std::size_t>(16 * warps * (k / rule->chunkCols)));
            for (int thread = 0; thread < 32 * warps; ++thread) {
                const Lane lane = Lane::of(thread);
                for (int j = 0; j < fieldsPerWord; ++j) {
                    const std::optional<Cell> chunk = reading.place(lane, j, F);
                    if (!chunk)
                        continue;
                    MetadataField f;
                    f.thread = thread;
                    f.bitLo = j * rule->fieldBits;
                    f.bitHi = f.bitLo + rule->fieldBits - 1;
                    f.row = chunk->row + 16 * lane.warp;
                    f.colFirst = chunk->col;
                    f.colLast = chunk->col + rule->chunkCols - 1;
                    f.source = figure.source;
                    if (f.row >= 16 * warps || f.colFirst % rule->chunkCols != 0 || f.colLast >= k)
                        throw std::logic_error(std::string("metadata figure out of range: ") +
                                               figure.figures);
                    sel.fields.push_back(f);
                }
            }
            out.push_back(std::move(sel));
        }
        return out;
    };
    const MetadataReading& primary = figure.readings.front();
    md.selectors = selectorsOf(primary);
    if (warps > 1)
        md.notes.push_back(
            "each warp w supplies the metadata of rows 16w..16w+15 with the mma.sp mapping of " +
            std::string(figure.figures) + ": " + figure.lanes);
    else
        md.notes.push_back(std::string(figure.figures) + ": metadata comes from " + figure.lanes);
    md.notes.push_back(std::string("evidence: ") + figure.evidence);
    if (figure.readings.size() > 1 && resolvedOnHardware) {
        // Settled on hardware: the first reading is fact; the others are named as refuted, not offered.
        std::string refuted;
        for (const MetadataReading& r : figure.readings)
            if (&r != &primary)
                refuted +=
                    (refuted.empty() ? "'" : ", '") + std::string(r.name) + "' (" + r.description + ")";
        md.notes.push_back("RESOLVED on hardware: '" + std::string(primary.name) + "' (" +
                           primary.description + "); refuted: " + refuted);
    } else if (figure.readings.size() > 1) {
        md.candidate = primary.name;
        for (const MetadataReading& r : figure.readings)
            md.candidates.push_back({r.name, r.description, selectorsOf(r)});
        md.notes.push_back("UNRESOLVED: " + std::to_string(figure.readings.size()) +
                           " candidate readings; showing '" + primary.name +
                           "' (a guess, marked inferred) until the hardware probe decides");
    }
    md.notes.push_back(
        "inferred: the elements of one thread in one row and [firstcol..lastcol] range fill its "
        "chunks in column order, in increasing element index; the k-th kept element of a chunk is "
        "placed by the k-th index of its field (bits [1..0] first)");
    return md;
}

void registerAtom(Catalog& catalog, const Atom& atom) {
    const bool warpgroup = isWarpgroup(atom.family);
    std::vector<bool> orderings{false};
    if (atom.family == &kMmaSp)
        orderings =
            atom.sparseForms == SparseForms::Both ? std::vector<bool>{false, true} : std::vector<bool>{true};
    const MajorPair majors = atom.majors.value_or(MajorPair{Major::Row, Major::Col});
    for (const bool ordered : orderings) {
        // Registering one spec (Catalog::wants): only the N whose family and shape start that spec
        // ("mma.m16n8k16.") can hold it; the others build no string at all.
        std::vector<bool> shapeWanted(atom.ns.size(), true);
        for (std::size_t ni = 0; ni < atom.ns.size() && catalog.registeringOne(); ++ni) {
            shapeWanted[ni] = catalog.wantsPrefix(familyName(atom.family, ordered) + '.' +
                                                  shapeWord(atom.m, atom.ns[ni], atom.k) + '.');
        }
        if (std::find(shapeWanted.begin(), shapeWanted.end(), true) == shapeWanted.end())
            continue;
        for (const T a : atom.types)
            for (const Accumulator accum : atom.accums)
                for (std::size_t ni = 0; ni < atom.ns.size(); ++ni) {
                    if (!shapeWanted[ni])
                        continue;
                    const int n = atom.ns[ni];
                    Variant v;
                    v.family = atom.family;
                    v.scope = warpgroup ? Scope::Warpgroup : Scope::Warp;
                    v.threads = warpgroup ? 128 : 32;
                    v.m = atom.m;
                    v.n = n;
                    v.k = atom.k;
                    v.atype = v.btype = a;
                    v.ctype = accum.c;
                    v.dtype = accum.d;
                    v.alayout = majors.a;
                    v.blayout = majors.b;
                    v.kind = atom.kind;
                    v.minSm = atom.minSm;
                    v.ordered = ordered;
                    v.sparse = atom.metadata != nullptr;
                    v.section = atom.section;
                    v.anchor = atom.anchor;
                    v.spec = specOf(v, atom.majors.has_value());
                    if (!catalog.wants(v.spec))
                        continue;
                    v.forms = formsOf(atom, a);
                    v.ptx = ptxOf(v, v.forms.front());
                    for (const NoteRule& rule : kNoteRules)
                        if (rule.applies(v))
                            v.notes.push_back(rule.text(v));
                    for (const ErratumRule& rule : kErrata)
                        if (rule.applies(v))
                            v.errata.push_back(rule.erratum);
                    const Atom* at = &atom;
                    catalog.add(std::move(v), [at](Instruction& in) {
                        const int threads = in.threads;
                        in.operands.reserve(4); // A, B, C, D
                        in.operands.push_back(makeOperand(Operand::A, in.atype, threads, *at->a));
                        if (at->b)
                            in.operands.push_back(makeOperand(Operand::B, in.btype, threads, *at->b));
                        if (!isWarpgroup(at->family))
                            in.operands.push_back(
                                makeOperand(Operand::C, in.ctype, threads, at->cd(in.ctype, in.n)));
                        in.operands.push_back(accumulatorLayout(*at, in));
                        if (at->metadata) {
                            const bool resolved = in.hardware && in.hardware->verdict == Verdict::Pass;
                            const int warps = in.threads / kWarpSize;
                            const int container =
                                at->a->shape.registerBits / at->a->shape.elementsPerRegister;
                            // Shared: every accumulator, alias and N of one atom has the same table.
                            static detail::SharedCache<
                                std::tuple<const MetadataFigure*, int, bool, int, int, bool>, MetadataLayout>
                                cache;
                            in.metadata =
                                cache.get({at->metadata, container, in.ordered, in.k, warps, resolved}, [&] {
                                    return buildMetadata(*at->metadata, container, in.ordered, in.k, warps,
                                                         resolved);
                                });
                        }
                    });
                }
    }
}

namespace {

// The PTX string of an atom variant: opcode.sync.aligned.shape[.alayout.blayout][.kind::k][.block_scale...]
// .dtype.atype.btype[.ctype][.b1 op][.scale type] (wgmma names neither layouts nor C).
std::string atomPtx(const Variant& v, const Form& form, std::string_view opcode) {
    const bool warpgroup = v.scope == Scope::Warpgroup;
    std::string s;
    s.reserve(96); // the longest, block-scaled mma.sp, is ~90 characters
    s = opcode;
    (s += ".sync.aligned.") += shapeName(v);
    auto add = [&s](std::string_view part) { (s += '.') += part; };
    if (!warpgroup) {
        add(toString(v.alayout));
        add(toString(v.blayout));
    }
    if (v.kind != Kind::None)
        (s += ".kind::") += toString(v.kind);
    s += toString(form.scaleVec);
    add(toString(v.dtype));
    add(toString(form.atype));
    add(toString(form.btype));
    if (!warpgroup)
        add(toString(v.ctype));
    if (form.b1 != B1Op::None)
        s += form.b1 == B1Op::Xor ? ".xor.popc" : ".and.popc";
    if (form.scaleVec != ScaleVec::None)
        add(toString(form.scaleType));
    return s;
}

std::string mnk(const Variant& v) {
    return shapeWord(v.m, v.n, v.k);
}

std::string validateAtom(const Instruction& entry, const Params& p);
void instantiateAtom(Instruction& in);

// CUTLASS's type tokens: F16, BF16, TF32, E4M3, S8, ..., U1 for b1.
std::string typeToken(ElementType t) {
    std::string s(toString(t));
    for (char& c : s)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s == "B1" ? "U1" : s;
}

// CUTLASS's name of the MMA atom (cute/arch/mma_sm*.hpp); "" where it has none. A variant's record is enough
// (the catalog search names every variant by it without building a layout).
std::string atomCutlassName(const Variant& in) {
    if (in.kind != Kind::None || in.forms.front().scaleVec != ScaleVec::None || in.family == &kMmaSp)
        return {};
    const std::string shape = std::to_string(in.m) + "x" + std::to_string(in.n) + "x" + std::to_string(in.k);
    const Form& form = in.forms.front();
    const std::string a = typeToken(form.atype), b = typeToken(form.btype);
    const std::string d = typeToken(in.dtype), c = typeToken(in.ctype);
    const std::string popc = form.b1 == B1Op::Xor ? "_XORPOPC" : form.b1 == B1Op::And ? "_ANDPOPC" : "";
    // CUTLASS has no atom for: b1 wgmma, fp8 mma other than k32, Volta quad-pairs with C and D of different
    // types (checked against the atom list of cute/arch/mma_sm*.hpp).
    if (form.b1 != B1Op::None && in.family != &kMma)
        return {};
    if (in.family == &kMma) {
        const bool fp8 = form.atype == ElementType::E4M3 || form.atype == ElementType::E5M2;
        if ((fp8 && in.k != 32) || (in.minSm <= 70 && in.ctype != in.dtype))
            return {};
        if (in.minSm >= 90) // f64 m16n8k{4,8,16}: cute::SM90::MMA_16x8x4_F64F64F64F64_TN
            return "SM90::MMA_" + shape + "_" + d + a + b + c + "_TN";
        const std::string arch = in.minSm <= 70 ? "SM70" : fp8 ? "SM89" : "SM80";
        const std::string layout =
            std::string(in.alayout == Major::Row ? "T" : "N") + (in.blayout == Major::Col ? "N" : "T");
        return arch + "_" + shape + "_" + d + a + b + c + "_" + layout + popc;
    }
    const bool transposable = form.atype == ElementType::F16 || form.atype == ElementType::BF16;
    const std::string name = shape + "_" + d + a + b + "_RS" + (transposable ? "" : "_TN") + popc;
    return in.family == &kWgmma ? "SM90::GMMA::MMA_" + name : "SM90::GMMA::SPARSE::GMMA_" + name;
}

std::string atomCutlassNameOf(const Instruction& in) {
    return atomCutlassName(in);
}

// What a catalog search finds a variant by beyond its spellings: CUTLASS's atom of every form (an e5m2 x
// e4m3 form is SM89_16x8x32_F32E5M2E4M3F32_TN) and, for wgmma, the atom reading A from shared memory too
// (_SS: the same layouts as lanemap's _RS).
std::vector<std::string> atomSearchWords(const Variant& v) {
    std::vector<std::string> words;
    for (std::size_t f = 0; f < v.forms.size(); ++f) {
        Variant form = v;
        std::vector<Form>& forms = form.forms.edit();
        std::rotate(forms.begin(), forms.begin() + static_cast<long>(f), forms.end());
        const std::string name = atomCutlassName(form);
        if (name.empty() || std::find(words.begin(), words.end(), name) != words.end())
            continue;
        words.push_back(name);
        if (const std::size_t rs = name.find("_RS"); rs != std::string::npos)
            words.push_back(name.substr(0, rs) + "_SS" + name.substr(rs + 3));
    }
    return words;
}

// mma, mma.sp, wgmma and wgmma.sp take a sparsity selector where they are sparse, and wgmma the layout of its
// shared-memory operands.
// wgmma's N: every N of the instruction is a catalog row of its own (each probed on its own), so the N
// values are the sibling rows' — the rows equal in everything but N — and a selection at N is that row's.
bool siblings(const Variant& a, const Variant& b) {
    return a.family == b.family && a.m == b.m && a.k == b.k && a.atype == b.atype && a.btype == b.btype &&
           a.ctype == b.ctype && a.dtype == b.dtype && a.alayout == b.alayout && a.blayout == b.blayout &&
           a.kind == b.kind && a.sparse == b.sparse && a.ordered == b.ordered;
}

std::vector<int> wgmmaNValues(const Instruction& entry) {
    std::vector<int> ns;
    for (const Variant* v : Catalog::instance().variants())
        if (siblings(*v, entry))
            ns.push_back(v->n);
    std::sort(ns.begin(), ns.end());
    return ns;
}

Selection wgmmaAtN(const Selection& selection, int n) {
    for (const Variant* v : Catalog::instance().variants())
        if (v->n == n && siblings(*v, *selection.variant)) {
            Selection at{v, selection.params}; // the shared-memory choice fits every N of a type
            at.params.n = 0;
            return at;
        }
    Selection refused = selection; // validate() names the N values there are
    refused.params.n = n == selection.variant->n ? 0 : n;
    return refused;
}

std::string validateAtom(const Instruction& entry, const Params& p) {
    const bool warpgroup = entry.scope == Scope::Warpgroup;
    const unsigned takes = (entry.metadata ? TakesSelector : TakesNothing) |
                           (warpgroup ? TakesSharedMemory : TakesNothing) | TakesTile;
    for (std::string why : {refuseOthers(entry, p, takes), checkSelector(entry, p)})
        if (!why.empty())
            return why;
    if (p.tile) {
        if (p.smem)
            return "--major and --swizzle place one wgmma atom's shared-memory operands; a tile shows its "
                   "register operands (docs/tiles.md): give one or the other";
        if (std::string why = tile::validate(entry, *p.tile); !why.empty())
            return why;
    }
    std::string error;
    if (p.smem && smem::operands(entry, *p.smem, error).empty())
        return error;
    return {};
}

// wgmma's A (the SS form) and B as they sit in shared memory, for the instance's choice (K-major, 128B).
void instantiateAtom(Instruction& in) {
    if (in.scope != Scope::Warpgroup || in.params.tile)
        return;
    std::string error;
    const std::vector<smem::SharedOperand> shared =
        smem::operands(in, in.params.smem.value_or(smem::Choice{}), error);
    in.placements.reserve(in.placements.size() + shared.size());
    for (const smem::SharedOperand& op : shared)
        in.placements.push_back(Placement::sharedMemory(op));
}

// wgmma's A or B over an extent of whole tiles, as a descriptor loop reads it (lanemap/feeds.hpp).
bool atomSharedOperand(const Instruction& in, Operand operand, const smem::Choice& choice, int rows, int cols,
                       Placement& out, std::string& error) {
    const std::optional<smem::SharedOperand> op = smem::operandOver(in, operand, choice, rows, cols, error);
    if (!op)
        return false;
    out = Placement::sharedMemory(*op);
    return true;
}

} // namespace

const Family kMma{.name = "mma",
                  .registerTable = registerDenseMma,
                  .ptx = [](const Variant& v, const Form& f) { return atomPtx(v, f, "mma"); },
                  .shape = mnk,
                  .validate = validateAtom,
                  .instantiate = instantiateAtom,
                  .searchWords = atomSearchWords,
                  .cutlassAtom = atomCutlassNameOf};
const Family kMmaSp{
    .name = "mma.sp",
    .registerTable = registerSparseMma,
    .ptx = [](const Variant& v,
              const Form& f) { return atomPtx(v, f, v.ordered ? "mma.sp::ordered_metadata" : "mma.sp"); },
    .shape = mnk,
    .validate = validateAtom,
    .instantiate = instantiateAtom,
    .searchWords = atomSearchWords,
    .cutlassAtom = atomCutlassNameOf};
const Family kWgmma{.name = "wgmma",
                    .registerTable = registerWgmma,
                    .ptx = [](const Variant& v, const Form& f) { return atomPtx(v, f, "wgmma.mma_async"); },
                    .shape = mnk,
                    .validate = validateAtom,
                    .instantiate = instantiateAtom,
                    .searchWords = atomSearchWords,
                    .cutlassAtom = atomCutlassNameOf,
                    .nValues = wgmmaNValues,
                    .atN = wgmmaAtN,
                    .sharedOperand = atomSharedOperand};
const Family kWgmmaSp{
    .name = "wgmma.sp",
    .registerTable = registerWgmma,
    .ptx = [](const Variant& v, const Form& f) { return atomPtx(v, f, "wgmma.mma_async.sp"); },
    .shape = mnk,
    .validate = validateAtom,
    .instantiate = instantiateAtom,
    .searchWords = atomSearchWords,
    .cutlassAtom = atomCutlassNameOf,
    .nValues = wgmmaNValues,
    .atN = wgmmaAtN,
    .sharedOperand = atomSharedOperand};

} // namespace lanemap::family
