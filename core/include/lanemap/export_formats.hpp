#pragma once
// Exports that take a layout into user code (docs/reference/exports.md): a CUDA C++ header, CuTe
// Shape:Stride layouts, Triton LinearLayout bases, and CSV / Markdown / LaTeX tables. Every exporter works
// from FragmentLayout and Instruction only, so new families export without changes; a layout a notation
// cannot express is said so in the document, never dropped or guessed.

#include "lanemap/model.hpp"
#include "lanemap/smem.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace lanemap {

// C++ identifier of a spec: `mma.m16n8k16.f16` -> `mma_m16n8k16_f16`. A wgmma header of another shared-memory
// layout than the default (K-major, 128B) adds it, `wgmma_m64n64k16_f16_mn_64b`, so that headers of several
// layouts of one variant can be included together.
std::string cudaNamespace(const Instruction& instruction, const smem::Choice& choice = {});

// The C++ type of one register of `op` in the header's mma() wrapper: "uint32_t", "float" or "double".
std::string_view cudaRegisterType(const FragmentLayout& op);

// A self-contained header: per register operand constexpr __host__ __device__ row/col/owner functions, the
// metadata field location of sparse forms, and an inline-PTX wrapper. Compiles as plain C++ without nvcc.
// wgmma adds, for `choice` (default K-major, 128B swizzle), A's and B's smem_offset/smem_bit and matrix
// descriptor, the warpgroup fence/commit/wait helpers and wrappers with A from registers or shared memory.
// Throws std::invalid_argument when `choice` does not fit the variant (MN-major for a non-16-bit type).
std::string toCudaHeader(const Instruction& instruction, const smem::Choice& choice = {});

// CuTe thread-value layouts ((T,V) -> (M,K), (N,K), (M,N)) per register operand, the CUTLASS atom name where
// CUTLASS has one, and for wgmma the Swizzle o layout of the shared-memory operands for `choice`.
// `only`: just that operand (the GUI's Copy as CuTe); its shared-memory layout too for wgmma A and B.
std::string toCute(const Instruction& instruction, const smem::Choice& choice,
                   std::optional<Operand> only = std::nullopt);
// The CUTLASS MMA atom of a variant ("SM80_16x8x16_F32F16F16F32_TN", "SM90::GMMA::MMA_64x8x16_F32F16F16_RS");
// empty when CUTLASS names none.
std::string cutlassAtom(const Instruction& instruction);

// Triton LinearLayout bases (register / lane / warp -> dim0, dim1) per register operand as JSON, or the
// reason an operand is not linear over F2.
// A tile's bases (docs/tiles.md#triton): lane = thread % 32, warp = thread / 32 over the CTA, the "tile"
// object as the json export writes it.
std::string toTritonJson(const Instruction& instruction, std::optional<Operand> only = std::nullopt);
// Why a tile (Instruction::tile) has no Triton LinearLayout although its atom has one, naming the part at
// fault (an atom layout or extent that is not a power of two, a permutation that is not linear over F2): ""
// when it has one, or when the atom alone has none (toTritonJson says so per operand).
std::string tritonTileRefusal(const Instruction& instruction);

// Tables of one operand (every register operand when `operand` is null): one line per element.
std::string toCsv(const Instruction& instruction, const FragmentLayout* operand);
// Markdown: one grid per operand, cells `T<lane>:<letter><i>` like the PTX figures.
std::string toMarkdown(const Instruction& instruction, const FragmentLayout* operand);
// A standalone LaTeX document drawing each grid with TikZ; one \node per cell inside a matrix-free
// loop-free picture, split into pages of at most 64 columns so TeX's memory holds on m64n256 tiles.
std::string toLatex(const Instruction& instruction, const FragmentLayout* operand);

} // namespace lanemap
