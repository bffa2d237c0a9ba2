#pragma once
// Where `export -o PATH` writes one spec's document, and the write itself, shared by every export path (the
// catalog families, the tcgen05.mma view, --smem).

#include <iosfwd>
#include <string>
#include <string_view>

namespace lanemap::cli {

// PATH itself, or, when PATH is an existing folder, SPEC.EXT (.gz with gzip) inside it: the name `--all`
// gives the same spec, so `-o out/` means the same folder for one spec as for all of them.
std::string exportTarget(const std::string& path, std::string_view spec, std::string_view extension,
                         bool gzip);

// Writes `doc` for `spec` to `path` (see exportTarget) and says which file it wrote: 0, or 2 with the reason
// on `err` (lanemap/write.hpp: the old file is kept on failure).
int writeExport(const std::string& path, std::string_view spec, std::string_view extension, bool gzip,
                const std::string& doc, std::ostream& out, std::ostream& err);

} // namespace lanemap::cli
