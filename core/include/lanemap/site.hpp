#pragma once
// The static web site of every layout (docs/site.md): one self-contained HTML page per variant and an index
// page, written by `lanemap-cli export --all --format html -o site/`. No server, no CDN, no external script:
// the page's style sheet and script (resources/site/) and its data are inline.
//
// A variant page draws the same core Diagram the app paints (every operand; one Diagram per sparsity
// selector), on a canvas: hover lights the lane in every operand and shows the cell's details, a click pins
// it, and `page.html#A:3,11` opens with the cell at row 3, column 11 of A pinned.

#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/model.hpp"

#include <string>
#include <vector>

namespace lanemap {

// File name of a variant's page in the site: "<spec>.html".
std::string sitePageName(const Variant& variant);

// What a page opens with: its Colour by and Palette selects (the reader changes both).
struct PageOptions {
    ColorBy colorBy = ColorBy::Lane;
    Palette palette = Palette::Default;
};

// The colourings a page offers: lane, register and thread group; a tile of atoms (lanemap/tile.hpp) adds
// warp, warpgroup (a tile of warpgroup atoms) and thread; Tensor Memory only lane.
std::vector<ColorBy> pageColorings(const Instruction& instruction);

// One variant's page, or a tile's (`export SPEC --atom-layout ... --format html`): every operand, the hover
// naming the CTA thread, its warp and lane. Throws std::invalid_argument for a colouring the page does not
// offer (pageColorings), naming the valid ones.
std::string htmlPage(const Instruction& instruction, const PageOptions& options = {});

// The Diagrams a page draws: one per sparsity selector (the page's selector picks one), else one; an instance
// with nothing in registers or Tensor Memory (a TMA box) draws its placement in shared memory.
std::vector<Diagram> siteDiagrams(const Instruction& instruction);

struct SiteDataOptions {
    // Also the PTX string, the caption lines and the errata (id, status, summary, evidence): what a static
    // page writes as HTML above the picture, and the web app (docs/web.md) draws from the data.
    bool header = false;
    // Every cell's tooltip (Diagram::tooltip). Without: "tips" is null and the reader asks for the few it
    // shows (the web app: a 65,536-cell Tensor Memory's tooltips would be most of its data).
    bool tooltips = true;
    // When given: the cells' numbers go here as floats (15 a cell, panel after panel, in the order the JSON
    // would list them) and each panel has "cellsAt": [first number, cells] instead of "cells" — a reader that
    // can take an array whole (the web app, from the engine's memory) skips parsing them as text.
    std::vector<float>* cells = nullptr;
};
// Appends the page's data (the `LANEMAP` object resources/site/variant.js and web/app.js draw: the Diagrams'
// panels, cells, labels and tooltips, texts, lines, the palettes, the hardware verdict) as one JSON object.
// `diagrams` are of `instruction` (siteDiagrams, or another view of it: shared memory, Tensor Memory).
void siteData(std::string& out, const Instruction& instruction, const std::vector<Diagram>& diagrams,
              const SiteDataOptions& options = {});

// The index: every variant of `variants`, grouped by family and shape, with the app's filter
// (lanemap/search.hpp) and links to the pages.
std::string htmlIndex(const std::vector<const Variant*>& variants);

} // namespace lanemap
