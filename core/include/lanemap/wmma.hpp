#pragma once
// wmma: the warp-level matrix instructions whose fragment contents the PTX ISA leaves unspecified ("the
// distribution of fragments loaded by the threads in a warp is unspecified and is target architecture
// dependent", §9.7.14.4). The table (core/src/families/wmma/wmma.cpp) holds only what the ISA states: shapes,
// types, layouts, register counts, sections. Where each element lands comes from discovery reports: what a
// real GPU put in every fragment register of every lane when it loaded index-tagged matrices
// (resources/discovery/*.json, docs/discovery.md). Qt-free and CUDA-free.

#include "lanemap/model.hpp"
#include "lanemap/probe_report.hpp"
#include "lanemap/vocabulary.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap::wmma {

// One fragment wmma.load.{a,b,c} fills: the unit that discovery observes. C stands for the accumulator
// fragment, which C and D share (wmma.store.d writes the same fragment type).
struct FragmentForm {
    Operand operand = Operand::A; // A, B or C
    int m = 0, n = 0, k = 0;
    ElementType type = ElementType::F16;
    Major layout = Major::Row; // the memory layout the load reads
    int words = 0;             // 32-bit words per lane (the ISA's register count; an .f64 register is 2)

    int rows() const; // A: m x k, B: k x n, C: m x n
    int cols() const;
    int elementBits() const;      // data bits of one element
    int elementsPerLane() const;  // num_elements of the CUDA C++ fragment
    int elementsPerWord() const;  // 0 for .f64 (one element spans two words)
    std::string key() const;      // "m16n16k16.a.row.f16"
    std::string ptxLoad() const;  // "wmma.load.a.sync.aligned.row.m16n16k16.f16"
    std::string cudaName() const; // "wmma::fragment<matrix_a, 16, 16, 16, half, row_major>"
    friend bool operator==(const FragmentForm&, const FragmentForm&) = default;
};

// Every fragment form of the table, in table order.
const std::vector<FragmentForm>& fragmentForms();
// The form of a key ("m16n16k16.a.row.f16"); nullopt when the table has none.
std::optional<FragmentForm> formOfKey(std::string_view key);
// The fragment a wmma variant's operand uses: A, B, and C or D (both the accumulator fragment loaded
// row-major). nullopt for other families.
std::optional<FragmentForm> formOf(const Variant& variant, Operand operand);

// ---- Tagging: the index-carrying matrices discovery loads ----

// One load of a discovery: plane `plane` of each element's tag, where the tag is the element's index
// (row * cols + col) or, with `complement`, (rows * cols - 1 - index). Two tag orders make a dump that only
// looks right by accident (a stale or constant register) inconsistent.
struct TagRun {
    bool complement = false;
    int plane = 0;
};

// Bits of one tag plane: the largest integer range the type holds exactly as a value (f16: 11, bf16: 8,
// s8: 7, s4: 3, b1: 1, ...).
int planeBits(ElementType type);
// The runs one form needs: planes x {index, complement}.
std::vector<TagRun> tagRuns(const FragmentForm& form);
// Leading dimension (elements) of the tagged matrix: the row (or column) length plus 16 bytes of padding,
// filled with an out-of-range tag, so a load that ignored ldm is caught.
int leadingDimension(const FragmentForm& form);
// The matrix of one run in memory (row- or column-major per form.layout, ldm = leadingDimension, sub-byte
// elements packed from the low bits up), as bytes.
std::vector<std::uint8_t> taggedMatrix(const FragmentForm& form, const TagRun& run);

// The encoding of a small integer as a value of `type` (f16, bf16, tf32/f32, f64, integers two's
// complement in the element's bits); nullopt when the type cannot hold it exactly.
std::optional<std::uint64_t> encodeValue(ElementType type, long long value);
// The integer an element's bits hold exactly; nullopt when they hold no integer (NaN, a fraction).
std::optional<long long> decodeValue(ElementType type, std::uint64_t bits);
// Element `index` of one lane's words (words.size() == form.words).
std::uint64_t elementBitsOf(const FragmentForm& form, std::span<const std::uint32_t> words, int index);
// One lane's words with element `index` set to `bits`.
void setElementBits(const FragmentForm& form, std::span<std::uint32_t> words, int index, std::uint64_t bits);

// ---- Decoding ----

// A fragment as discovered: where element i of lane l lands, cells[l * elementsPerLane + i].
struct DiscoveredFragment {
    FragmentForm form;
    std::vector<Cell> cells;

    Cell cell(int lane, int index) const {
        return cells[static_cast<std::size_t>(lane * form.elementsPerLane() + index)];
    }
    int numElements() const { return form.elementsPerLane(); } // per lane, as the fragment declares
    int uniqueCells() const; // distinct cells held (rows * cols when complete)
    int maxHolders() const;  // most (lane, element) slots one cell has
};

// Reads one dump per run of tagRuns(form) (32 lanes x form.words words each, lane-major) into cells.
// Rejects a dump whose slots hold no exact tag, an out-of-range tag (the padding: ldm ignored), runs that
// disagree (index vs complement), and a fragment that leaves a cell of the matrix unheld; `error` says which
// lane, element and run.
bool decodeFragment(const FragmentForm& form, std::span<const std::vector<std::uint32_t>> dumps,
                    DiscoveredFragment& out, std::string& error);

// ---- Reports ----

// What the GPU said when the discovered layouts were put to work: wmma.store.d of a fragment filled from
// the discovered C layout, and wmma.mma on fragments filled from the discovered A, B, C layouts whose D,
// read through the discovered layout, must equal the product computed on the CPU.
struct DiscoveryCheck {
    std::string spec;
    Verdict store = Verdict::Unsupported;
    Verdict mma = Verdict::Unsupported;
    std::string detail; // why a check failed or did not run
};

struct DiscoveryReport {
    DeviceInfo device;
    std::string sassTarget; // "sm_90": the SASS the kernels ran as (other targets may differ)
    std::string date;       // ISO 8601 UTC
    std::string lanemapVersion;
    std::vector<DiscoveredFragment> fragments;
    std::vector<DiscoveryCheck> checks;
    std::vector<std::string> failures; // fragments that could not be discovered, with the reason

    const DiscoveredFragment* fragment(const FragmentForm& form) const;
    const DiscoveryCheck* check(std::string_view spec) const;
};

std::string toJson(const DiscoveryReport& report);
// Parses and validates (docs/reference/discovery-report.md): a malformed file, an unknown fragment, a lane
// list of the wrong size, a cell out of range, a matrix cell no lane holds, a summary that contradicts the
// placements, a duplicated fragment or check: rejected with a message naming the field.
bool parseDiscoveryReport(std::string_view json, DiscoveryReport& report, std::string& error);
bool loadDiscoveryReportFile(const std::string& path, DiscoveryReport& report, std::string& error);

// The reports built into this program (resources/discovery/*.json), with their file names.
struct RecordedDiscovery {
    std::string file; // "resources/discovery/h100-wmma.json"
    DiscoveryReport report;
};
const std::vector<RecordedDiscovery>& recordedDiscoveries();

// Contributed reports (docs/discovery.md): files users add next to the built-in ones, one per target. The
// user folder (every *.json in it) is read on first use; each file is validated as `lanemap-cli discover
// --validate` validates it, and refused when invalid or when its target already has a report.
// $LANEMAP_DISCOVERY_DIR, else $XDG_DATA_HOME/lanemap/discovery, else ~/.local/share/lanemap/discovery.
std::string userDiscoveryFolder();
// Adds one report file (the app's File > Open discovery report); false with `error` naming why.
bool addDiscoveryReport(const std::string& path, std::string& error);
// Adds every *.json of `folder`; the files refused, "path: why".
std::vector<std::string> loadDiscoveryFolder(const std::string& folder);
// The user folder's files that were refused, "path: why".
std::vector<std::string> refusedDiscoveryReports();
// Built-in reports (default first), then contributed ones in the order they were added. The pointers stay
// valid for the life of the program.
std::vector<const RecordedDiscovery*> availableDiscoveries();

// The SASS targets with a report (built in or contributed), the default (the catalog's) first.
std::vector<std::string> discoveredTargets();
// The targets whose report holds a fragment of `variant`, the default first: what `lanemap-cli list` prints
// and the app's target picker offers.
std::vector<std::string> targetsOf(const Variant& variant);
// The report for a target ("sm_90"); nullptr when none.
const RecordedDiscovery* recordedFor(std::string_view sassTarget);

// A wmma instruction with its layouts from the report of `sassTarget` (empty: the default target). Operands
// without a discovered fragment are left out; `notes` says so.
Instruction instructionFor(const Variant& variant, std::string_view sassTarget = {});

// ---- Relation to mma.sync ----

// How one operand of a discovered wmma fragment is made of mma.sync fragments: the wmma matrix cut into
// tiles of the mma operand, and per tile which wmma element holds each mma element for every lane.
struct MmaTile {
    int row0 = 0, col0 = 0;
    std::vector<int> elements; // wmma element index holding mma element j, for every lane alike
};
struct MmaRelation {
    std::string mmaSpec; // "mma.m16n8k16.f16"
    Operand operand = Operand::A;
    std::vector<MmaTile> tiles;
};
// Every relation the layouts bear out (computed by comparing placements, never written by hand).
std::vector<MmaRelation> mmaRelations(const Instruction& wmmaInstruction);
// "A = 2 x mma.m16n8k16.f16 A fragments side by side: rows 0-15 cols 0-15 = x[0..7]; ..."
std::string describe(const MmaRelation& relation);

// The catalog spec a wmma spelling names: a short spec (wmma.m16n16k16.row.col.f16.f32), a PTX string
// (wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32, wmma.load.a.sync.aligned.row.m16n16k16.f16) or a CUDA C++
// fragment type (wmma::fragment<matrix_a, 16, 16, 16, half, row_major>). What a fragment or a load leaves
// open is filled from the table: .row.col, the first accumulator of the type, the first type of the
// accumulator. Empty with `error` set when the spelling names no wmma variant; `form` is what was typed.
std::string canonicalSpec(std::string_view text, Form& form, std::string& error);

// The words every wmma display carries.
inline constexpr std::string_view kUnspecified = "the PTX ISA and the CUDA guide leave the wmma fragment "
                                                 "layout unspecified; this placement was observed on "
                                                 "hardware";
inline constexpr std::string_view kNotDiscovered =
    "layout not yet discovered on any GPU; run lanemap-cli discover";
// "observed on NVIDIA H100 80GB HBM3, SASS sm_90 (driver ..., CUDA ..., date; resources/...); other targets
// may differ"
std::string observedOn(const RecordedDiscovery& recorded);

} // namespace lanemap::wmma
