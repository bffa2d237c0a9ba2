#pragma once
// Shared vocabulary of the family tables: element types, fragment rows, PTX string assembly.
// Internal to core (not installed).

#include "lanemap/catalog.hpp"
#include "lanemap/model.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lanemap::family {

// One operand fragment as the PTX manual states it: register shape plus the row/col formula.
struct Fragment {
    FragmentShape shape;
    PlaceFn place = nullptr;
    Source source = Source::Doc;
};

struct TypeInfo {
    std::string_view name;
    int bits = 0;      // data bits of one element
    bool floating = false;
};

// Known element types; nullptr for unknown names.
const TypeInfo* typeInfo(std::string_view name);

// Bit offset of an element's data inside its container: .kind::f8f6f4 puts e2m1 in the middle 4 bits of a
// byte and e3m2/e2m3 in the low 6 bits (ptx-catalog.md §0).
int containerPad(std::string_view type, int containerBits);

// Build one operand layout of a warp-level (or warpgroup) instruction from its fragment row.
FragmentLayout makeOperand(std::string name, std::string_view type, int threads, const Fragment& fragment,
                           int n = 0);

// `mma.sync.aligned.<shape>.<alayout>.<blayout>[.kind::k].<d>.<a>.<b>.<c>` plus b1's `.op.popc`.
std::string mmaPtx(std::string_view shape, std::string_view alayout, std::string_view blayout,
                   std::string_view kind, std::string_view dtype, std::string_view atype,
                   std::string_view btype, std::string_view ctype, std::string_view family = "mma",
                   std::string_view b1op = "xor");

// Canonical short spec (design.md §3): family.shape[.layouts][.kind::k].atype[.ctype][.dtype], where the ctype
// appears only when it is not the default (spec.hpp defaultCtype) or differs from the dtype.
std::string shortSpec(std::string_view family, std::string_view shape, std::string_view layouts,
                      std::string_view kind, std::string_view atype, std::string_view ctype,
                      std::string_view dtype);

// B type spellings with the same layout as `atype` (PTX allows any s8/u8, s4/u4, e4m3/e5m2 mix).
std::vector<std::string> mixedPartners(std::string_view atype);

} // namespace lanemap::family
