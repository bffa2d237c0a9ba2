#pragma once
// A selection — a catalog variant and its typed parameters (lanemap/params.hpp) — is what every edge parses
// once (the CLI's SPEC and flags, the app's filter box and pickers, a page's URL) and what the rest of the
// program works from: instantiate() turns it into the instance, whose placements the consumers draw and
// export (docs/architecture.md#selections).

#include "lanemap/model.hpp"
#include "lanemap/params.hpp"

#include <memory>
#include <string>
#include <vector>

namespace lanemap {

struct ParsedSpec;

struct Selection {
    const Variant* variant = nullptr;
    Params params;

    explicit operator bool() const { return variant != nullptr; }
    friend bool operator==(const Selection&, const Selection&) = default;
};

// The selection a parsed spec names: its variant, and what the text itself said beyond the variant — the
// form typed (when not the canonical one), a tcgen05.mma's N, a pasted block-scaled string's vector size.
Selection selectionOf(const ParsedSpec& parsed);

// N is a parameter of every instruction whose N varies — wgmma and wgmma.sp (a catalog row per N, each
// probed on its own) and tcgen05.mma (one entry for every N) alike: the values N takes, in order (empty
// where N is fixed), the N a selection has, and the selection at another N with its other parameters kept
// (a tcgen05.mma's access falls back to the one that fits the new N). An N the instruction does not take is
// kept in Params::n, for validate() to refuse by name.
std::vector<int> nValues(const Selection& selection);
int nOf(const Selection& selection);
Selection atN(const Selection& selection, int n);
// The one spelling of a selection: Params::n set on a wgmma row resolves to the row of that N.
// validate() and instantiate() see selections through it.
Selection canonical(const Selection& selection);

// "" when the parameters fit the variant (its family's row checks them), else what is wrong and what is
// valid.
std::string validate(const Selection& selection);

// The instance: the catalog entry with the parameters applied (the typed form's PTX string, a wmma target's
// layouts, a half split, a tcgen05.mma's N, operand, access and block scale, wgmma's shared-memory choice)
// and every placement. Default parameters give the catalog's own instruction; others are built once and
// kept while used (compared as values, never as text). Throws std::invalid_argument with validate()'s message
// when the parameters do not fit.
std::shared_ptr<const Instruction> instantiate(const Selection& selection);

// Fills `instruction.placements`: every register operand is placed, then its family applies the parameters
// (the operands they change, the placements in other spaces they add, how its placements are named). The
// catalog's build calls this with the default parameters.
void placeOperands(Instruction& instruction);

} // namespace lanemap
