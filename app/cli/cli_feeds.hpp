#pragma once
// lanemap-cli feeds SPEC --into CONSUMER[:OPERAND]: does what SPEC writes into shared memory (a TMA box) feed
// the reader, cell by cell (cli_feeds.cpp, docs/tma.md#feeds).

#include <iosfwd>
#include <string>

namespace lanemap::cli {

struct FeedsIntoRequest {
    std::string spec;  // the writer (a TMA box spec)
    std::string into;  // CONSUMER[:OPERAND]
    std::string major; // --major K|MN (descriptor readers)
    std::string swizzle;
    std::string inner; // --inner K|MN: which operand axis the box's columns hold
    std::string smem;  // --smem: an ldmatrix/stmatrix tile
    bool json = false;
};

// Exit 0 when the writer feeds the reader cell by cell, 1 when a cell differs (the first is named), 2 for
// bad input.
int cmdFeedsInto(const FeedsIntoRequest& request, std::ostream& out, std::ostream& err);

} // namespace lanemap::cli
