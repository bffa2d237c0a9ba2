#pragma once
// Layouts in (docs/layouts-in.md): show, identify, check and conform a layout pasted as CuTe or Triton text.

#include "lanemap/tile.hpp"

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace lanemap::cli {

struct LayoutRequest {
    std::string text;    // the layout, or @FILE
    std::string shape;   // --shape DIM0xDIM1
    std::string operand; // --operand A|B|C|D: the operand of a triton JSON document, CuTe's axis names
    std::string against; // check --against SPEC:OPERAND
    std::optional<tile::TileLayout> tile; // check --atom-layout/--permutation: against a tile of SPEC
    std::string format;                   // show: txt (default), svg or json
    std::string output;                   // show -o FILE ('-' or none: standard output)
    std::string major, swizzle; // check of a swizzled layout against wgmma's A or B: lanemap's smem choice
    std::string elementBits;    // --element-bits: a shared encoding's element size where its text has none
};

// Whether the text `show` was given is a layout rather than a spec: it starts as no spec does ('(', a digit,
// '_', '#', '{', '@', Layout, using, cute::, Sw<).
bool looksLikeLayout(std::string_view text);

int cmdShowLayout(const LayoutRequest& request, std::ostream& out, std::ostream& err);
int cmdIdentify(const LayoutRequest& request, std::ostream& out, std::ostream& err);
int cmdCheck(const LayoutRequest& request, std::ostream& out, std::ostream& err);
int cmdConform(const std::string& path, std::ostream& out, std::ostream& err);

} // namespace lanemap::cli
