#pragma once
// The instruction atom: one declarative record per PTX fragment table (shape, types, fragments, metadata
// figure, PTX section), in the spirit of CuTe's MMA_Traits. A type variant is one more entry in `types` or
// one more row that differs in one field; every family registers through registerAtom. Internal to core (not
// installed).

#include "lanemap/catalog.hpp"
#include "lanemap/model.hpp"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanemap::family {

// One operand fragment as the PTX manual states it: register shape plus the row/col formula, and which
// document states it (text formula, figure, CUTLASS, inference). Hardware evidence is never written here.
struct Fragment {
    FragmentShape shape;
    PlaceFn place = nullptr;
    Source source = Source::Doc;
};

// The C/D fragment of an accumulator type at width N (N matters for wgmma only).
using AccumulatorFn = Fragment (*)(ElementType type, int n);

// A C/D type pair; C and D differ only in m8n8k4 .f16 mixed precision.
struct Accumulator {
    ElementType c;
    ElementType d;
};
constexpr Accumulator acc(ElementType t) {
    return {t, t};
}

// Which PTX spellings a sparse atom has: plain mma.sp and ::ordered_metadata, or the latter only.
enum class SparseForms : std::uint8_t { Both, OrderedOnly };

// Sparse metadata (PTX §9.7.14.6.2 figures): the chunk that field j (bits [4j+3:4j]) of lane l's metadata
// word describes under sparsity selector F, as {row, first column}; nullopt when the lane supplies none under
// F.
using MetadataPlaceFn = std::optional<Cell> (*)(const Lane& l, int j, int F);

// One reading of a metadata figure. A resolved figure has one; an open one several, the first shown.
struct MetadataReading {
    const char* name;
    const char* description;
    MetadataPlaceFn place;
};

// One metadata figure of the warp-level mma.sp section; sparse wgmma uses the same figures per warp ("each
// warp in the warpgroup provides sparsity information for 16 rows of matrix A").
struct MetadataFigure {
    const char* figures;        // "Fig. 119"
    std::vector<int> selectors; // valid sparsity selector values F
    const char* lanes;          // which lanes supply metadata, in words
    Source source;              // of every field: figure, CUTLASS or inferred
    const char* evidence;       // where the mapping comes from (documents only)
    std::vector<MetadataReading> readings;
};

// Block-scale spellings of a form: the first is canonical.
struct ScaleForm {
    ScaleVec vec;
    ElementType scaleType;
};

struct MajorPair {
    Major a;
    Major b;
};

// One atom: a fragment table of the PTX manual and every variant it yields.
struct Atom {
    const Family* family;
    int m;
    std::vector<int> ns; // one N for mma; every valid N for wgmma
    int k;
    std::vector<ElementType> types;  // A (= B) types, one variant each
    std::vector<Accumulator> accums; // first = default accumulator
    const Fragment* a;
    const Fragment* b; // nullptr: B comes from shared memory (wgmma)
    AccumulatorFn cd;
    int minSm;
    const char* section;                      // PTX 9.1 section
    const char* anchor;                       // HTML anchor in the PTX manual
    const MetadataFigure* metadata = nullptr; // sparse only
    SparseForms sparseForms = SparseForms::Both;
    Kind kind = Kind::None;
    std::vector<ScaleForm> scale = {}; // block scaling
    // A/B major-ness where PTX allows more than .row.col (m8n8k4 .f16): the spec then names it.
    std::optional<MajorPair> majors = std::nullopt;
};

// The rows of the four atom families (lanemap/family.hpp).
extern const Family kMma, kMmaSp, kWgmma, kWgmmaSp;

// Registers every variant of an atom: types x accumulators x N (x plain/ordered for mma.sp).
void registerAtom(Catalog& catalog, const Atom& atom);

// Bit offset of an element's data inside its container: .kind::f8f6f4 puts e2m1 in the middle 4 bits of a
// byte (docs/reference/ptx-facts.md).
int containerPad(ElementType type, int containerBits);

// Build one operand layout from its fragment.
FragmentLayout makeOperand(Operand operand, ElementType type, int threads, const Fragment& fragment,
                           int n = 0);

// The metadata operand of a sparse instruction: fields for every selector value of the figure's first
// reading. `warps` > 1 stacks the figure per warp (warp w covers rows 16w..16w+15), as sparse wgmma does; `k`
// is the width of A; `containerBits` the width of one compressed A element. An open figure (several readings)
// lists every reading as a candidate unless `resolvedOnHardware`.
MetadataLayout buildMetadata(const MetadataFigure& figure, int containerBits, bool ordered, int k, int warps,
                             bool resolvedOnHardware);

} // namespace lanemap::family
