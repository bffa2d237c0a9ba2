#pragma once
// The static web site of every layout (docs/site.md): one self-contained HTML page per variant and an index
// page, written by `lanemap-cli export --all --format html -o site/`. No server, no CDN, no external script:
// the page's style sheet and script (resources/site/) and its data are inline.
//
// A variant page draws the same core Diagram the app paints (every operand; one Diagram per sparsity
// selector), on a canvas: hover lights the lane in every operand and shows the cell's details, a click pins
// it, and `page.html#A:3,11` opens with the cell at row 3, column 11 of A pinned.

#include "lanemap/catalog.hpp"
#include "lanemap/model.hpp"

#include <string>
#include <vector>

namespace lanemap {

// File name of a variant's page in the site: "<spec>.html".
std::string sitePageName(const Variant& variant);

// One variant's page.
std::string htmlPage(const Instruction& instruction);

// The index: every variant of `variants`, grouped by family and shape, with the app's filter
// (lanemap/search.hpp) and links to the pages.
std::string htmlIndex(const std::vector<const Variant*>& variants);

} // namespace lanemap
