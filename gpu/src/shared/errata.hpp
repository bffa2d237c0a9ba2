#pragma once
// What a probe run says about each erratum of the variant, for both methods. An erratum that carries the
// manual's reading of an operand (an alternative placement) is settled generically: over the elements where
// the manual's reading and lanemap's layout differ, the observed mapping is tallied against both.
#include "lanemap/gpu/experiments.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lanemap::gpu::detail {

// The manual's literal placement of one operand, where an erratum says lanemap places it differently.
struct ManualReading {
    Operand operand = Operand::A;
    PlaceFn place = nullptr;
    std::string
        lanemapSays; // lanemap's placement of the elements where the readings differ, in the manual's terms
    std::string manualSays; // the manual's, likewise
};

// The manual's reading an erratum carries (Erratum::manualReading), with the words its finding uses.
std::optional<ManualReading> manualReadingOf(const Erratum& erratum);

// One finding per erratum of the instruction that a run can speak to; `pass`: the run found no mismatch.
std::vector<std::string> errataFindings(const Instruction& instruction, const ObservedMapping& observed,
                                        bool pass);

// "<id> confirmed / refuted / unresolved: ..." from the observed placements of the reading's operand, per
// form.
std::string readingFinding(std::string_view id, const ManualReading& reading, const Instruction& instruction,
                           const ObservedMapping& observed);

} // namespace lanemap::gpu::detail
