// lanemap-cli decode: tcgen05 descriptors (PTX §9.7.16.4) as named fields, text or JSON; the encode direction
// takes the fields by name and prints the value with the same decoding.

#include "cli_decode.hpp"

#include "cli.hpp"
#include "cli_numbers.hpp"

#include "lanemap/excerpt.hpp"
#include "lanemap/tcgen05_desc.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <optional>
#include <ostream>
#include <sstream>

namespace lanemap::cli {

namespace {

std::string hex(std::uint64_t v, int digits) {
    std::ostringstream s;
    s << "0x" << std::hex << std::setw(digits) << std::setfill('0') << v;
    return s.str();
}

void writeText(std::string_view title, std::uint64_t bits, int digits,
               const std::vector<tcgen05::Field>& fields, const std::vector<tcgen05::Violation>& violations,
               const std::string& extra, std::ostream& out) {
    out << title << ' ' << hex(bits, digits) << '\n';
    std::size_t nameWidth = 0;
    for (const tcgen05::Field& f : fields)
        nameWidth = std::max(nameWidth, f.name.size());
    for (const tcgen05::Field& f : fields) {
        std::ostringstream range;
        range << (f.highBit == f.lowBit ? std::to_string(f.lowBit)
                                        : std::to_string(f.highBit) + "-" + std::to_string(f.lowBit));
        out << (f.highBit == f.lowBit ? "  bit  " : "  bits ") << std::left << std::setw(6) << range.str()
            << ' ' << std::setw(static_cast<int>(nameWidth)) << f.name << "  " << std::setw(6) << f.raw
            << "  " << f.meaning << '\n';
    }
    if (!extra.empty())
        out << extra << '\n';
    if (violations.empty())
        out << "valid: no rule broken\n";
    else
        for (const tcgen05::Violation& v : violations)
            out << "rule broken: " << v.field << ": " << v.rule << '\n';
}

nlohmann::ordered_json fieldsJson(const std::vector<tcgen05::Field>& fields) {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (const tcgen05::Field& f : fields)
        a.push_back({{"key", f.key},
                     {"name", f.name},
                     {"bits", {f.lowBit, f.highBit}},
                     {"raw", f.raw},
                     {"meaning", f.meaning}});
    return a;
}
nlohmann::ordered_json violationsJson(const std::vector<tcgen05::Violation>& violations) {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (const tcgen05::Violation& v : violations)
        a.push_back({{"field", v.field}, {"rule", v.rule}});
    return a;
}

int report(const std::vector<tcgen05::Violation>& violations, std::ostream& err) {
    for (const tcgen05::Violation& v : violations)
        err << "lanemap-cli: " << v.field << ": " << v.rule << '\n';
    return violations.empty() ? Ok : Usage;
}

int smemDescriptor(std::uint64_t bits, bool json, std::ostream& out, std::ostream& err) {
    const tcgen05::DecodedSmemDescriptor d = tcgen05::decodeSmemDescriptor(bits);
    if (json) {
        const tcgen05::SmemDescriptor& s = d.descriptor;
        nlohmann::ordered_json j = {{"descriptor", "tcgen05.smem"},
                                    {"value", hex(bits, 16)},
                                    {"valid", d.violations.empty()},
                                    {"start_address", s.startAddress},
                                    {"leading_byte_offset", s.leadingByteOffset},
                                    {"stride_byte_offset", s.strideByteOffset},
                                    {"base_offset", s.baseOffset},
                                    {"leading_mode", s.leadingMode == tcgen05::LeadingMode::AbsoluteAddress
                                                         ? "absolute"
                                                         : "relative"},
                                    {"swizzle", smem::toString(s.swizzle)},
                                    {"fields", fieldsJson(d.fields)},
                                    {"violations", violationsJson(d.violations)}};
        out << j.dump(2) << '\n';
    } else {
        writeText("tcgen05 shared-memory descriptor", bits, 16, d.fields, d.violations, "", out);
    }
    return report(d.violations, err);
}

int instrDescriptor(std::uint32_t bits, tcgen05::Kind kind, const tcgen05::Context& context, bool json,
                    std::ostream& out, std::ostream& err) {
    const tcgen05::DecodedInstrDescriptor d = tcgen05::decodeInstrDescriptor(bits, kind, context);
    const tcgen05::InstrDescriptor& i = d.descriptor;
    const int k = tcgen05::kOf(i);
    if (json) {
        nlohmann::ordered_json j = {
            {"descriptor", "tcgen05.idesc"},
            {"value", hex(bits, 8)},
            {"kind", tcgen05::toString(kind)},
            {"valid", d.violations.empty()},
            {"shape", {{"m", i.m}, {"n", i.n}, {"k", k}}},
            {"sparse", i.sparse},
            {"cta_group",
             context.ctaGroup ? nlohmann::ordered_json(*context.ctaGroup) : nlohmann::ordered_json(nullptr)},
            {"ws", context.ws ? nlohmann::ordered_json(*context.ws) : nlohmann::ordered_json(nullptr)},
            {"fields", fieldsJson(d.fields)},
            {"violations", violationsJson(d.violations)}};
        out << j.dump(2) << '\n';
    } else {
        std::ostringstream shape;
        shape << "shape: M = " << i.m << ", N = " << i.n << ", K = " << k << " ("
              << (i.sparse ? "sparse" : "dense") << ", kind::" << tcgen05::toString(kind) << ')';
        writeText("tcgen05 instruction descriptor (kind::" + std::string(tcgen05::toString(kind)) + ")", bits,
                  8, d.fields, d.violations, shape.str(), out);
    }
    return report(d.violations, err);
}

} // namespace

CLI::App* addDecodeCommand(CLI::App& app, DecodeRequest& r, bool withOptions) {
    auto* decode = app.add_subcommand(
        "decode",
        "tcgen05 descriptors field by field: --smem-desc VALUE, --idesc VALUE --kind K, or build one "
        "with --smem-desc-from / --idesc-from");
    if (!withOptions)
        return decode;
    decode->add_option("--smem-desc", r.smemDesc, "64-bit tcgen05 shared-memory descriptor (hex)");
    decode->add_option("--idesc", r.idesc, "32-bit tcgen05 instruction descriptor (hex); needs --kind");
    decode->add_option("--kind", r.kind, "With --idesc: " + std::string(tcgen05::kindList()));
    decode->add_option(
        "--smem-desc-from", r.smemFrom,
        "Encode: start=B,lbo=B,sbo=B,base=N,mode=relative|absolute,swizzle=none|128B-32B|128B|64B|32B");
    decode->add_option("--idesc-from", r.idescFrom,
                       "Encode: kind=K,a=T,b=T,d=T,m=M,n=N,sparse=0|1,selector=S,saturate=0|1,negate_a=0|1,"
                       "negate_b=0|1,major_a=K|MN,major_b=K|MN,max_shift=0|8|16|32,sf_a=I,sf_b=I,"
                       "scale=ue8m0|ue4m3,k96=0|1");
    decode->add_option("--cta-group", r.ctaGroup, "With an idesc: the instruction's .cta_group (1 or 2)")
        ->type_name("INT"); // read as text (cli_numbers.hpp)
    decode->add_flag("--ws", r.ws, "With an idesc: the instruction is .ws");
    decode->add_flag("--no-ws", r.noWs, "With an idesc: the instruction is not .ws");
    decode->add_flag("--json", r.json, "JSON instead of text (docs/reference/tcgen05-descriptors.md)");
    return decode;
}

int cmdDecode(const DecodeRequest& r, std::ostream& out, std::ostream& err) {
    const int given = !r.smemDesc.empty() + !r.smemFrom.empty() + !r.idesc.empty() + !r.idescFrom.empty();
    if (given != 1) {
        err << "lanemap-cli: decode takes exactly one of --smem-desc, --smem-desc-from, --idesc (with "
               "--kind), "
               "--idesc-from\n";
        return Usage;
    }
    const bool instr = !r.idesc.empty() || !r.idescFrom.empty();
    if (!instr && (r.ctaGroup || r.ws || r.noWs || !r.kind.empty())) {
        err << "lanemap-cli: --kind, --cta-group and --ws/--no-ws describe an instruction descriptor; the "
               "shared-memory descriptor takes none of them\n";
        return Usage;
    }
    tcgen05::Context context;
    if (r.ctaGroup) {
        const std::optional<Number> group = readNumber("--cta-group", *r.ctaGroup, err);
        if (!group)
            return Usage;
        if (group->value != 1 && group->value != 2) {
            err << "lanemap-cli: --cta-group "
                << (group->typed.empty() ? std::to_string(group->value) : group->typed)
                << " is not a CTA group; valid: 1, 2\n";
            return Usage;
        }
        context.ctaGroup = group->value;
    }
    if (r.ws && r.noWs) {
        err << "lanemap-cli: --ws and --no-ws contradict each other; use one\n";
        return Usage;
    }
    if (r.ws || r.noWs)
        context.ws = r.ws;

    if (!r.smemDesc.empty()) {
        const std::optional<std::uint64_t> bits = tcgen05::parseValue(r.smemDesc, 64);
        if (!bits) {
            err << "lanemap-cli: --smem-desc '" << excerpt(r.smemDesc)
                << "' is not a 64-bit hex value (up to 16 hex digits, 0x optional)\n";
            return Usage;
        }
        return smemDescriptor(*bits, r.json, out, err);
    }
    if (!r.smemFrom.empty()) {
        try {
            return smemDescriptor(tcgen05::encode(tcgen05::parseSmemDescriptor(r.smemFrom)), r.json, out,
                                  err);
        } catch (const std::invalid_argument& e) {
            err << "lanemap-cli: --smem-desc-from: " << e.what() << '\n';
            return Usage;
        }
    }
    if (!r.idesc.empty()) {
        if (r.kind.empty()) {
            err << "lanemap-cli: --idesc needs --kind: the bits mean different fields per kind; valid: "
                << tcgen05::kindList() << '\n';
            return Usage;
        }
        const std::optional<tcgen05::Kind> kind = tcgen05::parseKind(r.kind);
        if (!kind) {
            err << "lanemap-cli: unknown --kind '" << excerpt(r.kind) << "'; valid: " << tcgen05::kindList()
                << '\n';
            return Usage;
        }
        const std::optional<std::uint64_t> bits = tcgen05::parseValue(r.idesc, 32);
        if (!bits) {
            err << "lanemap-cli: --idesc '" << excerpt(r.idesc)
                << "' is not a 32-bit hex value (up to 8 hex digits, 0x optional)\n";
            return Usage;
        }
        return instrDescriptor(static_cast<std::uint32_t>(*bits), *kind, context, r.json, out, err);
    }
    if (!r.kind.empty()) {
        err << "lanemap-cli: --idesc-from names the kind itself (kind=...); drop --kind\n";
        return Usage;
    }
    try {
        const tcgen05::InstrDescriptor d = tcgen05::parseInstrDescriptor(r.idescFrom);
        return instrDescriptor(tcgen05::encode(d, context), d.kind, context, r.json, out, err);
    } catch (const std::invalid_argument& e) {
        err << "lanemap-cli: --idesc-from: " << e.what() << '\n';
        return Usage;
    }
}

} // namespace lanemap::cli
