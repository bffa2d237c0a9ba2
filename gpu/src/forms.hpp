#pragma once
// The instruction forms of a variant as structured data (lanemap::Form) and their PTX, rendered from them.
// Today's Variant carries its forms as PTX strings only: variantForms() is the one place that reads them; it
// and ptxOf() go once the core model carries `Variant::forms` and `lanemap::ptxOf`.
#include "lanemap/model.hpp"
#include "lanemap/vocabulary.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lanemap::gpu {

// Every form of the variant with its layout, canonical first, then the aliases in catalog order.
std::vector<lanemap::Form> variantForms(const Variant& variant);

// The PTX instruction (no operands) of one of the variant's forms.
std::string ptxOf(const Variant& variant, const lanemap::Form& form);

// An element type the layouts name (FragmentLayout::elementType()); throws std::logic_error for a name the
// vocabulary does not know.
ElementType elementTypeOf(std::string_view name);

} // namespace lanemap::gpu
