#pragma once
// Exporters that need no drawing: JSON (docs/reference/json.md) and plain-text grids like the PTX figures.

#include "lanemap/diagram.hpp"
#include "lanemap/model.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/write.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace lanemap {

// The JSON document of docs/reference/json.md (stable field names; deterministic key order and bytes).
std::string toJson(const Instruction& instruction, int indent = 1);
// wgmma documents add "shared_memory": the shared-memory A and B for `choice` (default: K-major, 128B
// swizzle).
std::string toJson(const Instruction& instruction, const smem::Choice& choice, int indent = 1);

// Text grid of one operand: each cell `T<thread>:<a|b|c|d><i>`, like the PTX figures. Quad-pair operands
// print one grid per product. Sparse A cells list every owner of the chunk.
std::string toTextGrid(const Instruction& instruction, const FragmentLayout& operand);

// Text views of the metadata operand: per selector, the A grid with `T<k>: [hi..lo]` chunk cells.
// `selector` limits the output to one selector value. Returns empty when the instruction has no metadata.
std::string metadataTextGrid(const Instruction& instruction, std::optional<int> selector = std::nullopt);

// The whole instruction as text: header, then every operand grid (and metadata, limited to `selector` if
// set). wgmma adds the shared-memory view of B for `choice` (default: K-major, 128B swizzle).
std::string toText(const Instruction& instruction, std::optional<int> selector = std::nullopt);
std::string toText(const Instruction& instruction, const smem::Choice& choice,
                   std::optional<int> selector = std::nullopt);

// Json, Text, Svg draw or describe; Html is one self-contained page of the static site (lanemap/site.hpp;
// --all adds the index page); Cuda, Cute, Triton take the layout into code; Csv, Markdown, Latex are tables
// (docs/reference/exports.md).
enum class ExportFormat { Json, Text, Svg, Html, Cuda, Cute, Triton, Csv, Markdown, Latex };

// How a document shows an instance. What the instance is — its sparsity selector, wgmma's shared-memory
// layout, a tcgen05.mma view — are its parameters (Instruction::params, lanemap/selection.hpp).
struct ExportOptions {
    OperandSet
        operands; // only these operands (A, B, C, D, metadata; B of wgmma: in shared memory); all when empty
    // Drawing formats (svg) only:
    ColorBy colorBy = ColorBy::Lane;
    Palette palette = Palette::Default;
    std::vector<int> lanes; // lane filter (threads drawn in color); empty = all
    // json only: the compact form (lanemap/export_json.hpp, docs/reference/json.md#compact-form).
    bool compact = false;
};

// Format names as the CLI spells them ("json", "txt"); nullopt for unknown names.
std::optional<ExportFormat> parseExportFormat(std::string_view name);
std::string_view toString(ExportFormat format); // "json", "txt", ...
std::string_view fileExtension(ExportFormat format);
// Every valid format name, comma-separated, for error messages.
std::string exportFormatList();

// One document in `format` of an instance (instantiate(), or a catalog instruction). Returns false and sets
// `error` (naming the bad input) when the options or the instance's parameters do not fit the format
// (unknown operand, a selector in a json document, ...).
bool exportInstruction(const Instruction& instruction, ExportFormat format, const ExportOptions& options,
                       std::string& document, std::string& error);

} // namespace lanemap
