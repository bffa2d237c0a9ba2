#pragma once
// An UNRESOLVED sparse metadata mapping, for tests of the candidate machinery (Codec candidates, JSON and
// text export, the hardware probe's verdict between readings). The hardware probe resolved every unresolved
// mapping of the catalog (resources/probe/h100-mma.json: 'rows-per-lane'), so tests rebuild the open
// question: a copy of a resolved instruction whose confirmed fields become candidate 'rows-per-lane'
// (primary, inferred) next to the refuted 'k-halves-per-lane' reading (lane 4g+2F holds the first half of K,
// lane 4g+2F+1 the second; bits [15:0] row g, bits [31:16] row g+8).
#include "lanemap/catalog.hpp"

#include <map>
#include <memory>
#include <string>

namespace lanemap::testing {

inline const Instruction& unresolvedSparse(const std::string& spec) {
    static std::map<std::string, std::unique_ptr<Instruction>> cache;
    auto& slot = cache[spec];
    if (slot)
        return *slot;
    auto in = std::make_unique<Instruction>(*Catalog::instance().instruction(spec));
    in->hardware = nullptr; // the open question: no recorded run has settled it
    auto copy =
        std::make_shared<MetadataLayout>(*in->metadata); // the catalog's table is shared and immutable
    MetadataLayout& md = *copy;
    in->metadata = copy;
    std::vector<MetadataSelector> rows = md.selectors, halves;
    for (MetadataSelector& s : rows)
        for (MetadataField& f : s.fields)
            f.source = Source::Inferred;
    const int chunk = md.chunkCols;
    for (const MetadataSelector& s : md.selectors) {
        MetadataSelector h{s.value, {}};
        for (int thread = 0; thread < 32; ++thread) {
            const Lane l = Lane::of(thread);
            if (l.threadID_in_group >> 1 != s.value)
                continue;
            for (int j = 0; j < 8; ++j) {
                MetadataField f;
                f.thread = thread;
                f.bitLo = 4 * j;
                f.bitHi = 4 * j + 3;
                f.row = j < 4 ? l.groupID : l.groupID + 8;
                f.colFirst = 4 * chunk * (l.threadID_in_group & 1) + chunk * (j % 4);
                f.colLast = f.colFirst + chunk - 1;
                f.source = Source::Inferred;
                h.fields.push_back(f);
            }
        }
        halves.push_back(std::move(h));
    }
    md.selectors = rows;
    md.candidate = "rows-per-lane";
    md.candidates = {
        {"rows-per-lane", "lane 4g+2F holds row g and lane 4g+2F+1 row g+8, all of K", rows},
        {"k-halves-per-lane", "lane 4g+2F holds the first half of K and lane 4g+2F+1 the second", halves}};
    md.notes.push_back(
        "UNRESOLVED: 2 candidate readings; showing 'rows-per-lane' (a guess, marked inferred) until "
        "the hardware probe decides");
    slot = std::move(in);
    return *slot;
}

} // namespace lanemap::testing
