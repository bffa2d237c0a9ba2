#pragma once
// A family is one folder of tables (core/src/families/<name>/) and one row: how its specs are read and
// written, its table, and what its parameters do (docs/architecture.md#a-family-is-one-folder-and-one-row).
// The catalog, the spec grammar and instantiate() go through the rows; nothing outside a family's folder
// branches on which family a variant belongs to.

#include "lanemap/vocabulary.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {

namespace smem {
struct Choice;
}
class Catalog;
class Placement;
struct CtaParts;
struct Form;
struct Instruction;
struct Params;
struct ParsedSpec;
struct Selection;
struct Variant;

// A word after a spec's opcode that names a parameter of the family's own grammar: "box" and "16x64" of
// `cp.async.bulk.tensor.2d box=16x64` (docs/tma.md#grammar).
struct SpecWord {
    std::string key, value;
    // Left out of the spec text at its default (an interleave of none): a picker offers it all the same.
    bool atDefault = false;
    bool operator==(const SpecWord&) const = default;
};

struct Family {
    // The spec's first word(s), as `list --family` takes it: "mma", "mma.sp", "tcgen05.mma".
    std::string_view name;
    // Registers the variants of the table this family's rows come from (families sharing a table name the
    // same function: it registers all of them at once).
    void (*registerTable)(Catalog& catalog) = nullptr;
    // The PTX instruction string of one form (no operands), and the shape word of the spec ("m16n8k16").
    std::string (*ptx)(const Variant& variant, const Form& form) = nullptr;
    std::string (*shape)(const Variant& variant) = nullptr;
    // Whether this family reads `opcode` (the text in lower case, without blanks around it or operands after
    // it), and reads it: `text` is what was typed (bounded), for grammars whose words carry blanks (a CUDA
    // C++ wmma fragment type). nullptr: the family shares the mma/wgmma grammar of the spec parser.
    bool (*claims)(std::string_view opcode) = nullptr;
    ParsedSpec (*parse)(std::string_view text, const std::string& opcode, const Catalog& catalog) = nullptr;
    // The parameters a variant of the family takes (lanemap/params.hpp): "" when `params` fit the catalog
    // entry, else what is wrong and what is valid.
    std::string (*validate)(const Instruction& entry, const Params& params) = nullptr;
    // Applies the instance's parameters (already validated) to it, a copy of the catalog entry: the layouts
    // they change and the placements they add.
    void (*instantiate)(Instruction& instance) = nullptr;
    // Words a catalog search may use for the variant beyond its spellings: the shapes its parameters reach
    // ("m128n16" .. "m128n256" for a tcgen05.mma entry, whose N is a parameter). nullptr: none.
    std::vector<std::string> (*searchWords)(const Variant& variant) = nullptr;
    // The name CUTLASS gives the variant's MMA atom ("SM80_16x8x16_F32F16F16F32_TN"); nullptr or "": none.
    std::string (*cutlassAtom)(const Instruction& instruction) = nullptr;
    // N, where the family lets it vary (lanemap/selection.hpp's nValues, atN): the values it takes for
    // `entry`, in order, and the selection at one of them. A tcgen05.mma entry stands for every N
    // (Params::n); a wgmma row is one N of a set of sibling rows, each probed on its own, so N picks the
    // row. nullptr: N is fixed.
    std::vector<int> (*nValues)(const Instruction& entry) = nullptr;
    Selection (*atN)(const Selection& selection, int n) = nullptr;
    // The placement in shared memory of `operand` as the instruction reads it through a matrix descriptor
    // (wgmma, tcgen05.mma), laid out by `choice`, over `rows` x `cols` of the operand's grid: 0 x 0 for the
    // instruction's own tile, else a whole number of them (the steps of a loop that advances the
    // descriptor's start address over one written tile; lanemap/feeds.hpp). False with `error` when the
    // choice or the extent does not fit. nullptr: the family reads no operand through a descriptor.
    bool (*sharedOperand)(const Instruction& instruction, Operand operand, const smem::Choice& choice,
                          int rows, int cols, Placement& out, std::string& error) = nullptr;
    // The part of `operand` (A or B) each CTA of the instruction's group holds in its own shared memory, and
    // how many CTAs hold one (a tcgen05.mma: one part with cta_group::1, half of A's rows or B's columns each
    // with ::2); nullopt where the instance reads no such part (A in Tensor Memory). Asked through
    // lanemap/cta_parts.hpp. nullptr: the family's instructions hold no operand per CTA.
    std::optional<CtaParts> (*ctaParts)(const Instruction& instruction, Operand operand) = nullptr;
    // The words after the opcode that name an instance's own parameters (a TMA box's tensor map), every one
    // its grammar reads back, in the order the spec text writes them. nullptr: the family has none.
    std::vector<SpecWord> (*words)(const Instruction& instance) = nullptr;
    // Its layouts come from discovery reports, not from the ISA (wmma): `probe --all` leaves it out unless
    // named, and `list` names the targets discovered.
    bool discovered = false;
};

// The instance's words (Family::words), none for a family without any.
std::vector<SpecWord> wordsOf(const Instruction& instance);
// The spec text that names `instance`, its family's words included (those not at their default):
// "cp.async.bulk.tensor.2d type=f16 tensor=64x128 box=8x64 origin=0,0 swizzle=128B"; the spec otherwise.
std::string specTextOf(const Instruction& instance);

// Every family in catalog order (the tables in PTX section order).
const std::vector<const Family*>& families();
// The family whose name is `name`; nullptr when none.
const Family* familyNamed(std::string_view name);

} // namespace lanemap
