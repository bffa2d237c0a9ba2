#include "lanemap/export.hpp"

#include <nlohmann/json.hpp>

namespace lanemap {

namespace {
using ordered_json = nlohmann::ordered_json;

ordered_json operandJson(const FragmentLayout& op) {
    ordered_json o;
    o["name"] = op.name();
    o["rows"] = op.rows();
    o["cols"] = op.cols();
    if (op.matrices() > 1) o["matrices"] = op.matrices();
    o["element_type"] = op.elementType();
    o["element_bits"] = op.elementBits();
    if (op.containerBits() != op.elementBits()) o["container_bits"] = op.containerBits();
    o["registers"] = op.registers();
    o["register_bits"] = op.registerBits();
    ordered_json elements = ordered_json::array();
    for (const Element& e : op.elements()) {
        ordered_json j;
        j["thread"] = e.thread;
        j["index"] = e.index;
        j["register"] = e.reg;
        j["bit"] = e.bit;
        if (e.matrix >= 0) j["matrix"] = e.matrix;
        j["row"] = e.row;
        if (op.chunked()) j["cols"] = {e.col, e.colLast};
        else j["col"] = e.col;
        j["source"] = std::string(toString(e.source));
        elements.push_back(std::move(j));
    }
    o["elements"] = std::move(elements);
    return o;
}

ordered_json selectorsJson(const std::vector<MetadataSelector>& list) {
    ordered_json selectors = ordered_json::array();
    for (const MetadataSelector& sel : list) {
        ordered_json s;
        s["value"] = sel.value;
        ordered_json fields = ordered_json::array();
        for (const MetadataField& f : sel.fields) {
            ordered_json j;
            j["thread"] = f.thread;
            j["bits"] = {f.bitHi, f.bitLo};
            j["row"] = f.row;
            j["cols"] = {f.colFirst, f.colLast};
            j["source"] = std::string(toString(f.source));
            fields.push_back(std::move(j));
        }
        s["fields"] = std::move(fields);
        selectors.push_back(std::move(s));
    }
    return selectors;
}

ordered_json metadataJson(const MetadataLayout& md) {
    ordered_json o;
    o["name"] = "metadata";
    o["granularity"] = md.granularity;
    o["index_bits"] = md.indexBits;
    o["chunk_cols"] = md.chunkCols;
    o["field_bits"] = md.fieldBits;
    o["valid_values"] = md.validValues;
    if (!md.candidate.empty()) o["candidate"] = md.candidate;
    o["selectors"] = selectorsJson(md.selectors);
    if (!md.notes.empty()) o["notes"] = md.notes;
    return o;
}

// Unresolved mappings: every candidate reading, complete, after the primary selectors.
ordered_json candidatesJson(const MetadataLayout& md) {
    ordered_json list = ordered_json::array();
    for (const MetadataCandidate& c : md.candidates)
        list.push_back({{"name", c.name},
                        {"primary", c.name == md.candidate},
                        {"description", c.description},
                        {"selectors", selectorsJson(c.selectors)}});
    return list;
}

void appendSelectors(std::string& out, const ordered_json& selectors, const std::string& indent) {
    for (std::size_t s = 0; s < selectors.size(); ++s) {
        out += s ? ",\n" + indent + "{" : "\n" + indent + "{";
        out += "\"value\": " + selectors[s]["value"].dump() + ", \"fields\": [";
        const ordered_json& fields = selectors[s]["fields"];
        for (std::size_t f = 0; f < fields.size(); ++f)
            out += (f ? ",\n " : "\n ") + indent + fields[f].dump();
        out += "\n" + indent + "]}";
    }
}
} // namespace

std::string toJson(const Instruction& in, int indent) {
    ordered_json doc;
    doc["spec"] = in.spec;
    doc["ptx"] = in.ptx;
    doc["family"] = std::string(toString(in.family));
    doc["scope"] = std::string(toString(in.scope));
    doc["threads"] = in.threads;
    doc["shape"] = {{"m", in.m}, {"n", in.n}, {"k", in.k}};
    doc["types"] = {{"a", in.atype}, {"b", in.btype}, {"c", in.ctype}, {"d", in.dtype}};
    if (!in.kind.empty()) doc["kind"] = in.kind;
    if (in.family == Family::MmaSp || in.family == Family::WgmmaSp) doc["ordered_metadata"] = in.ordered;
    if (in.family == Family::Mma && in.m == 8 && in.k == 4 && in.atype == "f16")
        doc["layouts"] = {{"a", in.alayout}, {"b", in.blayout}};
    doc["min_sm"] = in.minSm;
    doc["section"] = in.section;
    doc["anchor"] = in.anchor;
    if (!in.ptxAliases.empty()) doc["ptx_aliases"] = in.ptxAliases;
    if (!in.notes.empty()) doc["notes"] = in.notes;
    if (!in.errata.empty()) {
        ordered_json errata = ordered_json::array();
        for (const Erratum& e : in.errata)
            errata.push_back({{"id", e.id},
                              {"summary", e.summary},
                              {"manual", e.manual},
                              {"lanemap", e.lanemap},
                              {"evidence", e.evidence},
                              {"status", e.status}});
        doc["errata"] = std::move(errata);
    }
    // Layout: document fields indented, one operand header per line, one element (or field) per line —
    // small, diffable and still plain JSON.
    std::string out = doc.dump(indent);
    out.pop_back(); // '}'
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    out += ",\n \"operands\": [";
    auto emitArray = [&out](const ordered_json& header, const char* key, const ordered_json& items) {
        std::string h = header.dump();
        h.pop_back();
        out += "\n  " + h + ", \"" + key + "\": [";
        for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ",\n   " : "\n   ") + items[i].dump();
        out += "\n  ]}";
    };
    bool first = true;
    for (const FragmentLayout& op : in.operands) {
        ordered_json o = operandJson(op);
        ordered_json elements = std::move(o["elements"]);
        o.erase("elements");
        if (!first) out += ',';
        first = false;
        emitArray(o, "elements", elements);
    }
    if (in.metadata) {
        ordered_json md = metadataJson(*in.metadata);
        ordered_json selectors = std::move(md["selectors"]);
        md.erase("selectors");
        if (!first) out += ',';
        std::string h = md.dump();
        h.pop_back();
        out += "\n  " + h + ", \"selectors\": [";
        appendSelectors(out, selectors, "   ");
        out += "\n  ]";
        if (!in.metadata->candidates.empty()) {
            out += ", \"candidates\": [";
            const ordered_json candidates = candidatesJson(*in.metadata);
            for (std::size_t c = 0; c < candidates.size(); ++c) {
                ordered_json head = candidates[c];
                head.erase("selectors");
                std::string hc = head.dump();
                hc.pop_back();
                out += (c ? ",\n   " : "\n   ") + hc + ", \"selectors\": [";
                appendSelectors(out, candidates[c]["selectors"], "    ");
                out += "\n   ]}";
            }
            out += "\n  ]";
        }
        out += "}";
    }
    out += "\n ]\n}\n";
    return out;
}

} // namespace lanemap
