#pragma once
// Internal: the documents of an instance placed cell by cell in memory, with no register fragment (a TMA
// box).

#include "lanemap/export.hpp"

#include <string>

namespace lanemap::detail {

// json (each cell's shared-memory offset and global coordinates, null for fill), txt and svg; other formats
// are refused with what is valid.
bool exportPlacements(const Instruction& instruction, ExportFormat format, const ExportOptions& options,
                      std::string& document, std::string& error);

} // namespace lanemap::detail
