#pragma once
// Internal: the documents of a tile of tcgen05.mma atoms over the CTAs of a cluster (lanemap/tile_ctas.hpp),
// and the shared-memory parts of a tcgen05.mma's A and B appended to its picture.

#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"

#include <string>

namespace lanemap::detail {

// json (every holder of every element of A, B and D: its CTA and where in it), txt (what each CTA holds and
// D's grid) and svg (D per CTA); other formats are refused with what is valid.
bool exportTileOverCtas(const Instruction& instruction, ExportFormat format, const ExportOptions& options,
                        std::string& document, std::string& error);

// Under a tcgen05.mma's Tensor Memory picture, each CTA's part of A and of B in its shared memory (the
// family's sharedOperand: with cta_group::2 CTA c holds rows c M/2.. of A and columns c N/2.. of B), titled
// and tooltipped with the CTA. Nothing for an instance that reads no operand through a descriptor.
// `diagram` is expected to have reserved ctaSharedMemoryCellCount(instruction) cells beyond its own.
void appendCtaSharedMemory(Diagram& diagram, const Instruction& instruction, Palette palette);
std::size_t ctaSharedMemoryCellCount(const Instruction& instruction);

} // namespace lanemap::detail
