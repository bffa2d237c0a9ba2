#pragma once
// lanemap-cli banks (cli_banks.cpp).

#include "lanemap/export.hpp"
#include "lanemap/tile.hpp"

#include <iosfwd>
#include <optional>
#include <string>

namespace lanemap::cli {

struct BanksRequest {
    std::string spec;
    std::string smem;  // --smem placement text
    std::string feeds; // --feeds SPEC:OPERAND
    bool search = false;
    bool json = false;
    std::string format;                // --format text|json|svg (empty: text, or json with --json)
    std::optional<std::string> output; // -o PATH (not given or '-': stdout; given empty: refused)
    // --atom-layout/--permutation with --feeds: the tiled copy of the tile's operand (lanemap/tiled_copy.hpp)
    std::optional<tile::TileLayout> tile;
};

int cmdBanks(const BanksRequest& request, std::ostream& out, std::ostream& err);

// `show` / `export` of one ldmatrix or stmatrix with `--smem PLACEMENT`: the instruction's own document, and
// the placement's banks with it — text: the per-phase table after the grids; json: {"instruction": ...,
// "banks": ...}; svg: the shared-memory picture of the placement (what `banks --format svg` draws). `format`
// is an export format name ("txt" for show). `output` empty or "-": stdout. Exit 2 with a message for a spec
// that reads no shared memory, a format that cannot carry a placement, or a bad placement.
int cmdWithPlacement(const std::string& spec, const std::string& smem, const std::string& format,
                     const ExportOptions& options, const std::string& output, std::ostream& out,
                     std::ostream& err);

} // namespace lanemap::cli
