#pragma once
// The GPU product check's runner: builds exact inputs for every case (small integers in every type, so every
// product is exact), runs the generated kernels and compares D with the product computed here on the host.
// No CUDA types in this header.

#include <string>
#include <string_view>
#include <vector>

#include "product_case.hpp"

namespace lanemap {
struct Instruction;
}

namespace lanemap::product {

struct CaseResult {
    std::string spec;
    int selector = -1;         // -1: dense
    bool control = false;      // the negative control (Case::control): it must fail
    bool aShared = false;      // wgmma: A from shared memory (Case::aShared)
    int cells = 0;             // D cells compared (every product of quad-pair forms)
    int mismatches = 0;        // cells whose value differs from the host's product
    std::string firstMismatch; // "D[3][5]: expected 12, got 7"
    std::string error;         // a CUDA or setup failure; the case then fails
    bool pass() const { return error.empty() && mismatches == 0 && cells > 0; }
    // What the run needs of this case: a pass, or for the control a clean run whose product differs.
    bool asRequired() const { return control ? error.empty() && mismatches > 0 : pass(); }
};

struct Device {
    std::string name;
    int smMajor = 0, smMinor = 0;
    int driverVersion = 0, runtimeVersion = 0; // cudaDriverGetVersion / cudaRuntimeGetVersion
};

struct Run {
    Device device;
    std::string date; // UTC, ISO 8601
    double seconds = 0;
    std::vector<CaseResult> results;
};

// Why the check cannot run here ("no CUDA device: ...", "device ... is sm_80; the kernels are sm_90a"); empty
// when it can.
std::string deviceProblem();
// A control's instruction (product_controls.hpp): mma.m16n8k16.f16 with C's rows rotated by one, or for
// its spec wgmma.m64n64k16.f16 with A's rows rotated by one (layouts no instruction has).
const Instruction& controlInstruction(std::string_view spec);
// Runs `cases` (mmaCases(), and in lanemap-product-check wgmmaCases() too); call only when deviceProblem()
// is empty.
Run runAll(const std::vector<Case>& cases);

std::string toJson(const Run& run);
std::string toText(const Run& run);

} // namespace lanemap::product
