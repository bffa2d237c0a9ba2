#include "lanemap/export.hpp"

#include <array>

namespace lanemap {

namespace {
struct FormatName {
    ExportFormat format;
    std::string_view name;
    std::string_view extension;
};
constexpr std::array kFormats{FormatName{ExportFormat::Json, "json", "json"},
                              FormatName{ExportFormat::Text, "txt", "txt"}};

std::string operandList(const Instruction& in) {
    std::string s;
    for (const FragmentLayout& op : in.operands) s += (s.empty() ? "" : ", ") + op.name();
    if (in.metadata) s += ", metadata";
    return s;
}
} // namespace

std::optional<ExportFormat> parseExportFormat(std::string_view name) {
    for (const FormatName& f : kFormats)
        if (f.name == name) return f.format;
    return std::nullopt;
}

std::string_view formatName(ExportFormat format) {
    for (const FormatName& f : kFormats)
        if (f.format == format) return f.name;
    return "json";
}

std::string_view fileExtension(ExportFormat format) {
    for (const FormatName& f : kFormats)
        if (f.format == format) return f.extension;
    return "json";
}

std::string exportFormatList() {
    std::string s;
    for (const FormatName& f : kFormats) s += (s.empty() ? "" : ", ") + std::string(f.name);
    return s;
}

bool exportInstruction(const Instruction& in, ExportFormat format, const ExportOptions& options,
                       std::string& document, std::string& error) {
    if (options.operand && *options.operand != "metadata" && !in.operand(*options.operand)) {
        error = "no operand '" + *options.operand + "' in " + in.spec + "; valid operands: " + operandList(in);
        return false;
    }
    if (options.operand && *options.operand == "metadata" && !in.metadata) {
        error = in.spec + " has no metadata operand (only sparse instructions do); valid operands: " + operandList(in);
        return false;
    }
    if (options.selector) {
        if (!in.metadata) {
            error = "--selector applies to sparse instructions only; " + in.spec + " is dense";
            return false;
        }
        bool found = false;
        std::string valid;
        for (const MetadataSelector& s : in.metadata->selectors) {
            found = found || s.value == *options.selector;
            valid += (valid.empty() ? "" : ", ") + std::to_string(s.value);
        }
        if (!found) {
            error = "sparsity selector " + std::to_string(*options.selector) + " is not valid for " + in.spec +
                    "; valid selectors: " + valid;
            return false;
        }
    }
    switch (format) {
    case ExportFormat::Json:
        document = toJson(in);
        return true;
    case ExportFormat::Text:
        if (!options.operand) document = toText(in, options.selector);
        else if (*options.operand == "metadata") document = metadataTextGrid(in, options.selector);
        else document = toTextGrid(in, *in.operand(*options.operand));
        return true;
    }
    error = "unsupported format";
    return false;
}

} // namespace lanemap
