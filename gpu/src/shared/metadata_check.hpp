#pragma once
// The metadata check both methods share (mma.sp and wgmma.sp). Each method runs its own metadata experiments
// and reads, per A element and run, the k the element multiplied; from there on the check is the same: spell
// which nibble the hardware read each element's indices from (MetaLocate), compare every valid value's
// placement with the storage rule (MetaValue), and report per engine field.
#include "lanemap/model.hpp"
#include "lanemap/probe_report.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap::gpu::detail {

// What a read k may be besides a column.
constexpr int kNoK = -1;           // D spelled nothing
constexpr int kInconsistentK = -2; // D changed where it should not, or held values other than 0 and 1

// The nibble one A element's indices were read from, spelled over its MetaLocate runs: in run `bit` the
// nibbles whose id has that bit set hold 0b1110, the others 0b0100, so the element multiplies its 0b1110
// column k1 exactly when its nibble's id has the bit.
struct Locate {
    int id = 0;      // lane * 8 + nibble
    std::string odd; // set when a run matched neither column: what was seen

    // `inconsistent`: how the method words kInconsistentK for this element.
    void add(int bit, int k, int k0, int k1, std::string_view inconsistent);
    bool ok() const { return odd.empty(); }
};

// Lane `lane`'s metadata word in MetaLocate run `bit` (every nibble of the lane: 0b1110 where its id has the
// bit, 0b0100 elsewhere).
std::uint32_t locateWord(int lane, int bit);

// "lane 3 bits [7:4]" of a nibble id.
std::string nibbleName(int id);
// "lane 3 bits [7:6]" of a field.
std::string fieldName(const MetadataField& field);

// A MetaValue run that placed `who` elsewhere than the storage rule says.
std::string valueFailure(unsigned value, const std::string& who, int want, int k,
                         std::string_view inconsistent);

// Per engine field (index into the selector's fields): what went wrong, in words.
using FieldFailures = std::map<int, std::vector<std::string>>;

// One mismatch per failing field and experiment ("metadata location" + label, then "metadata value" + label),
// appended to `out`; returns the failing fields.
std::set<int> reportMetadata(const std::vector<MetadataField>& fields, const FieldFailures& locate,
                             const FieldFailures& value, const std::string& label,
                             std::vector<ProbeMismatch>& out);

} // namespace lanemap::gpu::detail
