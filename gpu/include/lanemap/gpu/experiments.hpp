#pragma once
// The host side of the hardware probe (docs/probe.md), CUDA-free.
//
//   plan:      the host builds register images: the exact 32-bit words every lane puts in every fragment
//              register, for every experiment of a variant (values 0 and 1 only, in each type's encoding).
//   device:    a kernel copies the words into registers, runs the one instruction, dumps the raw D registers
//              (or, in tests, simulate() computes D from the images with a reference layout).
//   interpret: only the host reads the raw D words back into rows, columns and k, and compares them with
//              the engine, cell by cell.
//
// The kernels never compute a row or a column: every placement the probe confirms is read off the
// hardware's own output.

#include "lanemap/model.hpp"
#include "lanemap/probe_report.hpp"
#include "lanemap/vocabulary.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace lanemap::gpu {

// One instruction form the probe runs, for every method: the variant's structured form (types, b1 operation)
// and, for sparse instructions, the sparsity selector. The PTX string is rendered from the form once (the
// kernels' instruction switch and the reports use it) and never read back.
struct ProbeForm {
    lanemap::Form instruction;
    int selector = -1; // sparsity selector immediate; -1 for dense forms
    std::string ptx;   // full PTX instruction string (no operands), rendered from `instruction`

    ElementType atype() const { return instruction.atype; }
    ElementType btype() const { return instruction.btype; }
    bool xorPopc() const { return instruction.b1 == B1Op::Xor; } // D = C + popc(a ^ b), not popc(a & b)
};

// The one-hot method's forms: canonical first, then its aliases (mixed s8/u8 or e4m3/e5m2 operands, b1
// `.and.popc`); for mma.sp, each of them with every sparsity selector.
std::vector<ProbeForm> formsOf(const Instruction& instruction);

// 32-bit words per lane of each operand (64-bit registers take two words, low word first).
struct RegisterWords {
    int a = 0, b = 0, c = 0, d = 0;
    int e = 0; // mma.sp metadata register: 1, else 0

    int in() const { return a + b + c + e; }
};
RegisterWords registerWords(const Instruction& instruction);

enum class ExperimentKind : std::uint8_t {
    CvsD,       // C one-hot, A = B = 0: which D slot takes each C element
    RowsAD,     // A one-hot, B all ones: which D slots (the row) each A element reaches
    ColsBD,     // B one-hot, A all ones: which D slots (the column) each B element reaches
    KAB,        // A one-hot, B element f = bit `bit` of (f+1): which B element each A element multiplies
    KBase,      // b1 .xor only: A = 0 with the KAB images of B, the popcount baseline the xor runs are read
                // against
    MetaLocate, // mma.sp: A one-hot, each metadata nibble set to pattern P0/P1 by bit `bit` of its id
    MetaValue,  // mma.sp: A one-hot, the engine's field of that element set to `value`, the rest P0
};
std::string_view toString(ExperimentKind kind);

struct Experiment {
    ExperimentKind kind = ExperimentKind::RowsAD;
    std::uint16_t form = 0; // index into ProbePlan::forms
    std::int32_t element =
        -1;                // flat element index (thread * elements per thread + index) of the one-hot operand
    std::int16_t bit = -1; // KAB/KBase: bit of (f+1); MetaLocate: bit of the nibble id
    std::int8_t pattern = 0; // mma.sp: the base metadata pattern everywhere (0: P0, 1: P1)
    std::int16_t field = -1; // MetaValue: index of the engine's metadata field (in the selector's list)
    std::int8_t value = -1;  // MetaValue: index into the valid patterns of that field
};

struct ProbePlan {
    const Instruction* instruction = nullptr;
    std::vector<ProbeForm> forms;
    RegisterWords words;
    std::vector<Experiment> experiments;
    // [experiment][word][lane]: the words of A, then B, then C, then the metadata word.
    std::vector<std::uint32_t> images;
    std::vector<std::uint8_t> modes; // per experiment: the form to run (the kernel's instruction switch)
    int kBits = 0;                   // runs per A element in the KAB experiment

    std::size_t inWordsPerExperiment() const { return static_cast<std::size_t>(words.in()) * 32; }
    std::size_t outWordsPerExperiment() const { return static_cast<std::size_t>(words.d) * 32; }
    std::size_t outWords() const { return outWordsPerExperiment() * experiments.size(); }
};

// Every experiment of docs/probe.md for every form of the instruction.
ProbePlan planProbe(const Instruction& instruction);
ProbePlan planProbe(const Instruction& instruction, std::vector<ProbeForm> forms);

// What the hardware showed, read back in the engine's coordinates (its D frame for rows and columns, its B
// frame for k): the observed mapping, whether or not it agrees with the engine. -1 where nothing was seen.
struct ObservedElement {
    int matrix = -1;
    int row = -1; // A: row of D reached; C: row of the D slot taken; B: row (k) of A multiplied
    int col = -1; // A: k of B multiplied; B: column of D reached; C: column of the D slot taken
};
struct ObservedField { // mma.sp: which lane and nibble of the metadata decides an A element's column
    int thread = -1;
    int nibble = -1;
    int slot = -1; // which 2-bit index of the nibble (0: bits [1:0], 1: bits [3:2])
};
struct ObservedMapping {
    std::vector<std::vector<ObservedElement>> a, b, c; // per form, per flat element
    std::vector<std::vector<ObservedField>> metadata;  // per form, per flat A element (mma.sp)
};

struct Discovered; // discover.hpp

struct Interpretation {
    ProbeResult result; // verdict, per-cell mismatches, findings (seconds left 0: the caller times the run)
    ObservedMapping observed;
    // The layouts a discovering method read (wmma); null for methods that confirm a documented layout.
    std::shared_ptr<const Discovered> discovery;
};

// Reads the raw D words ([experiment][word][lane], as the kernel wrote them) back into cells.
Interpretation interpretProbe(const ProbePlan& plan, std::span<const std::uint32_t> rawD);

// Reads a D element of `type` (f16, f32, s32, f64) as a number.
double decodeValue(ElementType type, std::uint64_t bits);

} // namespace lanemap::gpu
