#pragma once
// What the tcgen05.mma probe kernel is given (docs/probe.md "Tensor Memory", the mma kernel): per experiment
// and CTA, the shared-memory images of A and B and the Tensor Memory the kernel fills before the mma (A when
// it comes from Tensor Memory, the sparse metadata, the scale factors); for the whole plan the two shared-
// memory descriptors and the instruction descriptor, all encoded by core (tcgen05_desc.hpp), never by hand.
//
// One canonical operand layout for every form: K-major, no swizzle (SmemLayout; the descriptor's LBO steps
// along K between 8-row core matrices, SBO along M or N), so the images are the smem model's placements.
// The sparse metadata selects the first half of every group (0b0100 in every nibble), the scale factors are
// all 1.0, so D does not depend on where the metadata and scale-factor tables place them: every cell of
// their Tensor Memory columns holds the same word.
//
// CUDA-free: the images are built and checked here (tests/gpu/test_tcgen05_mma_images.cpp); the kernel
// (kernels_mma.cu) only copies them.
#include "lanemap/smem.hpp"
#include "lanemap/tcgen05_desc.hpp"
#include "lanemap/tmem.hpp"
#include "tensor_memory.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace lanemap::gpu::tc {

// Tensor Memory columns of the 512 the kernel allocates: D from column 0 (at most 256 columns), then what
// the images fill, kFillColumns columns from kFillColumn.
inline constexpr int kAllocColumns = 512;
inline constexpr int kFillColumn = 256;
inline constexpr int kFillColumns = 128;
inline constexpr int kAColumn = 256;        // A from Tensor Memory (at most 32 columns)
inline constexpr int kMetadataColumn = 288; // sparse metadata, 32 columns
inline constexpr int kScaleAColumn = 320;   // scale factors of A, 32 columns
inline constexpr int kScaleBColumn = 352;   // scale factors of B, 32 columns
inline constexpr int kRegionColumns = 32;

// The same for every experiment of one mma entry.
struct MmaSetup {
    tcgen05::InstrDescriptor instr;   // what idesc holds
    std::uint32_t idesc = 0;          // core's encoding of `instr`
    tcgen05::Type aType{}, bType{};   // the element types the values are written in
    int k = 0;                        // logical K of one instruction
    int storedK = 0;                  // K of A as stored: K / 2 when sparse
    int group = 1;                    // sparse: the metadata group in elements; its first half is kept
    int rowsA = 0, rowsB = 0;         // per CTA: M / ctaGroup rows of A, N / ctaGroup rows of B
    smem::SmemLayout a, b;            // A at byte 0 of the image, B after it (1024-aligned)
    std::uint64_t descriptorA = 0;    // core's tcgen05 encoding, start address relative to the image: the
    std::uint64_t descriptorB = 0;    // kernel adds its shared-memory base >> 4
    int sharedWords = 0;              // the A and B images, 32-bit words
    std::uint32_t metadataWord = 0;   // every metadata cell (sparse)
    std::uint32_t unitScaleWord = 0;  // every scale-factor cell: four scale factors of 1.0 (block-scaled)
    std::size_t wordsPerCta() const { // shared image, then [column - kFillColumn][lane]
        return static_cast<std::size_t>(sharedWords) + static_cast<std::size_t>(kFillColumns * tmem::kLanes);
    }
};

// Throws std::invalid_argument (from core's encoders) when the shape has no valid descriptor.
MmaSetup mmaSetupOf(const tmem::MmaShape& shape);

// The logical K of A's stored element `j` (dense: j; sparse: the first half of every metadata group).
int logicalK(const MmaSetup& setup, int j);

// A small exact value (0, or a power of two the type holds: 2^0 .. 2^8; e2m1 2^0 .. 2^2) in `type`'s bits.
std::uint32_t encodeElement(tcgen05::Type type, int value);
// The value of `bits` read as `type` (the simulated tensor core's reading).
double decodeElement(tcgen05::Type type, std::uint32_t bits);
int elementBits(tcgen05::Type type);

// One CTA's input to the kernel in one experiment: the A and B images, then the filled Tensor Memory.
std::vector<std::uint32_t> mmaImages(const Plan& plan, const Experiment& experiment, int cta);

// A simulated tensor core that reads the images as hardware would (the descriptors and idesc decoded by
// core, operands addressed from the decoded fields), multiplies, and writes D where `tmem::placeD` (the
// catalog's layout) says. The quirks make a device that does it wrong, for the tests.
struct MmaQuirks {
    bool bAsMnMajor = false;           // reads B as if its transpose bit were set
    bool leadingStrideSwapped = false; // reads the descriptors' LBO as SBO and back
};
std::vector<std::uint32_t> simulateMma(const Plan& plan, const MmaQuirks& quirks = {});

} // namespace lanemap::gpu::tc
