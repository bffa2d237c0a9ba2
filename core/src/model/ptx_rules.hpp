#pragma once
// The ISA's rules for the qualifiers of one instruction string, checked after the catalog has named the
// variant: which B types may go with A (mixes), which optional qualifiers apply (.satfinite: integer types;
// .rn/.rz/.rm/.rp: f64), and the order and spelling of everything else, compared token by token with the
// variant's own PTX spellings (its forms rendered with ptxOf: layouts, .kind, b1 operations,
// block-scale vectors and scale types). Each check names the offending qualifier.

#include "lanemap/model.hpp"
#include "lanemap/vocabulary.hpp"

#include <string>
#include <vector>

namespace lanemap::ptx_rules {

// `tokens`: the lower-cased input split at dots (the opcode only). On success returns empty and fills `form`
// with what was typed (A and B types, b1 operation, scale vector).
std::string checkPtx(const std::vector<std::string>& tokens, const Variant& variant, Form& form);

// A short spec (family.shape[.layouts][.kind::K].atype[.ctype[.dtype]]): order, no repeats, no PTX-only
// qualifiers, no empty .kind::.
std::string checkShortSpec(const std::vector<std::string>& tokens);

// The form of the variant's canonical PTX string (A's type twice, its b1 operation and scale vector).
Form canonicalForm(const Variant& variant);

// The B types PTX allows with A type `atype` under `kind` (empty: no .kind).
std::vector<ElementType> allowedBTypes(ElementType atype, const std::string& kind);

} // namespace lanemap::ptx_rules
