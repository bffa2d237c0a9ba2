#include "families/wmma/export_wmma.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/export.hpp"

#include "export/export_json_compact.hpp"
#include "export/export_json_tmem.hpp"
#include "families/matrix_move/export_matrix_move.hpp"

#include <nlohmann/json.hpp>

#include <charconv>

#include "model/tile_json.hpp"

namespace lanemap {

namespace {
using ordered_json = nlohmann::ordered_json;

ordered_json operandJson(const FragmentLayout& op) {
    ordered_json o;
    o["name"] = std::string(op.name());
    o["rows"] = op.rows();
    o["cols"] = op.cols();
    if (op.matrices() > 1)
        o["matrices"] = op.matrices();
    o["element_type"] = std::string(toString(op.elementType()));
    o["element_bits"] = op.elementBits();
    if (op.containerBits() != op.elementBits())
        o["container_bits"] = op.containerBits();
    o["registers"] = op.registers();
    o["register_bits"] = op.registerBits();
    return o;
}

// One element per line, the bytes of nlohmann's compact dump, written by hand: the largest operands
// (wgmma m64n256 D, k256 .b1 A) have 16384 elements and this runs ~10x faster than building json values.
void appendNumber(std::string& out, int value) {
    char buf[16];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, r.ptr);
}

void appendElements(std::string& out, const Instruction& in, const FragmentLayout& op) {
    bool first = true;
    // A tile's CTA thread also as its warp and lane (and warpgroup of a wgmma tile).
    const bool cta = in.scope == Scope::Cta;
    const bool warpgroups = in.tile && in.tile->atomThreads == kWarpgroupSize;
    for (const Element& e : op.elements()) {
        out += first ? "\n   " : ",\n   ";
        first = false;
        out += "{\"thread\":";
        appendNumber(out, e.thread);
        if (warpgroups) {
            out += ",\"warpgroup\":";
            appendNumber(out, e.thread / kWarpgroupSize);
        }
        if (cta) {
            out += ",\"warp\":";
            appendNumber(out, warpOf(e.thread));
            out += ",\"lane\":";
            appendNumber(out, laneOf(e.thread));
        }
        out += ",\"index\":";
        appendNumber(out, e.index);
        out += ",\"register\":";
        appendNumber(out, e.reg);
        out += ",\"bit\":";
        appendNumber(out, e.bit);
        if (e.matrix >= 0) {
            out += ",\"matrix\":";
            appendNumber(out, e.matrix);
        }
        out += ",\"row\":";
        appendNumber(out, e.row);
        if (op.chunked()) {
            out += ",\"cols\":[";
            appendNumber(out, e.col);
            out += ',';
            appendNumber(out, e.colLast);
            out += ']';
        } else {
            out += ",\"col\":";
            appendNumber(out, e.col);
        }
        out += ",\"source\":\"";
        out += toString(in.sourceOf(e.source));
        out += "\"}";
    }
}

// The compact form: the same fields as appendElements, column by column
// (docs/reference/json.md#compact-form).
void appendElementColumns(std::string& out, const Instruction& in, const FragmentLayout& op) {
    const auto& elements = op.elements();
    std::vector<long long> thread, index, reg, bit, matrix, row, col, colLast;
    std::vector<std::string_view> source;
    bool matrices = false;
    for (const Element& e : elements) {
        thread.push_back(e.thread);
        index.push_back(e.index);
        reg.push_back(e.reg);
        bit.push_back(e.bit);
        matrix.push_back(e.matrix);
        matrices = matrices || e.matrix >= 0;
        row.push_back(e.row);
        col.push_back(e.col);
        colLast.push_back(e.colLast);
        source.push_back(toString(in.sourceOf(e.source)));
    }
    detail::ColumnsWriter w(out, elements.size(), "   ");
    w.ints("thread", thread);
    w.ints("index", index);
    w.ints("register", reg);
    w.ints("bit", bit);
    if (matrices)
        w.ints("matrix", matrix);
    w.ints("row", row);
    if (op.chunked())
        w.pairs("cols", col, colLast);
    else
        w.ints("col", col);
    w.strings("source", source);
    w.finish();
}

ordered_json selectorsJson(const Instruction& in, const std::vector<MetadataSelector>& list) {
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
            j["source"] = std::string(toString(in.sourceOf(f.source)));
            fields.push_back(std::move(j));
        }
        s["fields"] = std::move(fields);
        selectors.push_back(std::move(s));
    }
    return selectors;
}

ordered_json metadataJson(const Instruction& in, const MetadataLayout& md) {
    ordered_json o;
    o["name"] = "metadata";
    o["granularity"] = std::string(md.granularity);
    o["index_bits"] = md.indexBits;
    o["chunk_cols"] = md.chunkCols;
    o["field_bits"] = md.fieldBits;
    o["valid_values"] = md.validValues;
    if (!md.candidate.empty())
        o["candidate"] = md.candidate;
    o["selectors"] = selectorsJson(in, md.selectors);
    if (!md.notes.empty())
        o["notes"] = md.notes;
    return o;
}

// Unresolved mappings: every candidate reading, complete, after the primary selectors.
ordered_json candidatesJson(const Instruction& in, const MetadataLayout& md) {
    ordered_json list = ordered_json::array();
    for (const MetadataCandidate& c : md.candidates)
        list.push_back({{"name", c.name},
                        {"primary", c.name == md.candidate},
                        {"description", c.description},
                        {"selectors", selectorsJson(in, c.selectors)}});
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

// "shared_memory": one entry per operand that can live in shared memory (wgmma A in the SS form, and B).
// Elements are written by hand: the largest (B of m64n256k256 .b1) has 65536 of them.
void appendSharedMemory(std::string& out, const Instruction& in, const smem::Choice& choice, bool compact) {
    std::string error;
    const std::vector<smem::SharedOperand> shared = smem::operands(in, choice, error);
    if (shared.empty())
        return;
    out += ",\n \"shared_memory\": [";
    bool firstOperand = true;
    for (const smem::SharedOperand& op : shared) {
        const smem::SmemLayout& l = op.layout;
        ordered_json h;
        h["operand"] = std::string(toString(op.operand));
        h["element_type"] = std::string(toString(op.elementType));
        h["element_bits"] = l.elementBits();
        h["rows"] = op.rows;
        h["cols"] = op.cols;
        h["orientation"] = op.operand == Operand::B ? "row = k, col = n" : "row = m, col = k";
        if (op.compressed)
            h["compressed"] = true;
        h["major"] = std::string(smem::toString(l.major()));
        h["swizzle"] = std::string(smem::toString(l.swizzle()));
        h["layout"] = l.canonicalFormula();
        h["exact_layout"] = l.exactLayout();
        h["swizzle_rule"] = l.swizzleRule();
        h["start_address"] = l.startAddress();
        h["lbo"] = l.leadingByteOffset();
        h["lbo_used"] = l.usesLeadingByteOffset();
        h["sbo"] = l.strideByteOffset();
        h["base_offset"] = l.baseOffset();
        h["descriptor"] = smem::hex(l.encodedDescriptor());
        h["footprint_bytes"] = l.footprintBytes();
        std::string head = h.dump();
        head.pop_back();
        out += firstOperand ? "\n  " : ",\n  ";
        firstOperand = false;
        const bool swizzled = l.swizzle() != smem::Swizzle::None;
        const bool subByte = l.elementBits() < 8;
        if (compact) {
            std::vector<long long> row, col, address, bit, linear;
            for (int r = 0; r < op.rows; ++r)
                for (int c = 0; c < op.cols; ++c) {
                    const smem::Coord lc = op.toLayout(r, c);
                    const smem::Placement p = l.placement(lc.mn, lc.k);
                    row.push_back(r);
                    col.push_back(c);
                    address.push_back(p.address);
                    bit.push_back(p.bit);
                    linear.push_back(p.linear);
                }
            out += head + ", \"elements\": ";
            detail::ColumnsWriter w(out, row.size(), "   ");
            w.ints("row", row);
            w.ints("col", col);
            w.ints("address", address);
            if (subByte)
                w.ints("bit", bit);
            if (swizzled)
                w.ints("linear", linear);
            w.finish();
            out += '}';
            continue;
        }
        out += head + ", \"elements\": [";
        bool first = true;
        for (int r = 0; r < op.rows; ++r)
            for (int c = 0; c < op.cols; ++c) {
                const smem::Coord lc = op.toLayout(r, c);
                const smem::Placement p = l.placement(lc.mn, lc.k);
                out += first ? "\n   " : ",\n   ";
                first = false;
                out += "{\"row\":";
                appendNumber(out, r);
                out += ",\"col\":";
                appendNumber(out, c);
                out += ",\"address\":";
                appendNumber(out, static_cast<int>(p.address));
                if (subByte) {
                    out += ",\"bit\":";
                    appendNumber(out, p.bit);
                }
                if (swizzled) {
                    out += ",\"linear\":";
                    appendNumber(out, static_cast<int>(p.linear));
                }
                out += '}';
            }
        out += "\n  ]}";
    }
    out += "\n ]";
}
} // namespace

std::string toJson(const Instruction& in, int indent) {
    return toJson(in, smem::Choice{}, indent);
}

std::string toJson(const Instruction& in, const smem::Choice& choice, int indent) {
    return detail::jsonDocument(in, choice, indent, false);
}

std::string detail::jsonDocument(const Instruction& in, const smem::Choice& choice, int indent,
                                 bool compact) {
    ordered_json doc;
    if (compact)
        doc["form"] = "compact";
    doc["spec"] = in.spec;
    doc["ptx"] = in.ptx;
    doc["family"] = std::string(in.family->name);
    doc["scope"] = in.scope == Scope::Cta ? std::string("cta") : std::string(toString(in.scope));
    doc["threads"] = in.threads;
    doc["shape"] = {{"m", in.m}, {"n", in.n}, {"k", in.k}};
    // A tile of the atom: what it is made of (docs/tiles.md#json); then every thread is a CTA thread.
    if (in.tile)
        doc["tile"] = tile::tileJson(*in.tile);
    // What A and B multiply into C and D: an instruction with a K (a move has none, tcgen05.ld/st too).
    if (in.k > 0)
        doc["types"] = {{"a", toString(in.atype)},
                        {"b", toString(in.btype)},
                        {"c", toString(in.ctype)},
                        {"d", toString(in.dtype)}};
    if (in.kind != Kind::None)
        doc["kind"] = toString(in.kind);
    if (in.metadata)
        doc["ordered_metadata"] = in.ordered;
    // Quad-pair products (mma.m8n8k4 .f16) are the variants whose spec names the A and B layouts.
    if (in.k > 0 && std::any_of(in.operands.begin(), in.operands.end(),
                                [](const FragmentLayout& op) { return op.matrices() > 1; }))
        doc["layouts"] = {{"a", toString(in.alayout)}, {"b", toString(in.blayout)}};
    doc["min_sm"] = in.minSm;
    doc["section"] = std::string(in.section);
    doc["anchor"] = std::string(in.anchor);
    if (in.forms.size() > 1) {
        ordered_json aliases = ordered_json::array();
        for (std::size_t f = 1; f < in.forms.size(); ++f)
            aliases.push_back(ptxOf(in, in.forms[f]));
        doc["ptx_aliases"] = std::move(aliases);
    }
    if (!in.notes.empty())
        doc["notes"] = in.notes;
    if (!in.errata.empty()) {
        ordered_json errata = ordered_json::array();
        for (const Erratum& e : in.errata)
            errata.push_back({{"id", e.id},
                              {"summary", e.summary},
                              {"manual", e.manual},
                              {"lanemap", e.lanemap},
                              {"evidence", evidenceOf(in, e)},
                              {"status", toString(statusOf(in, e))}});
        doc["errata"] = std::move(errata);
    }
    if (in.hardware) {
        const RecordedRun& run = *in.hardware->run;
        doc["hardware"] = {{"verdict", toString(in.hardware->verdict)},
                           {"device", run.device.name},
                           {"sm", run.device.sm},
                           {"driver", run.device.driver},
                           {"cuda_runtime", run.device.cudaRuntime},
                           {"date", run.date},
                           {"report", run.report}};
    }
    if (in.family->discovered)
        doc["wmma"] = wmmaJson(in);
    // Layout: document fields indented, one operand header per line, one element (or field) per line —
    // small, diffable and still plain JSON.
    std::string out = doc.dump(indent);
    out.pop_back(); // '}'
    while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
        out.pop_back();
    out += ",\n \"operands\": [";
    bool first = true;
    for (const FragmentLayout& op : in.operands) {
        std::string h = operandJson(op).dump();
        h.pop_back();
        if (!first)
            out += ',';
        first = false;
        if (compact && !op.elements().empty()) {
            out += "\n  " + h + ", \"elements\": ";
            appendElementColumns(out, in, op);
            out += '}';
            continue;
        }
        out += "\n  " + h + ", \"elements\": [";
        appendElements(out, in, op);
        out += "\n  ]}";
    }
    if (in.metadata) {
        ordered_json md = metadataJson(in, *in.metadata);
        ordered_json selectors = std::move(md["selectors"]);
        md.erase("selectors");
        if (!first)
            out += ',';
        std::string h = md.dump();
        h.pop_back();
        out += "\n  " + h + ", \"selectors\": [";
        appendSelectors(out, selectors, "   ");
        out += "\n  ]";
        if (!in.metadata->candidates.empty()) {
            out += ", \"candidates\": [";
            const ordered_json candidates = candidatesJson(in, *in.metadata);
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
    out += "\n ]";
    if (const std::string moves = matrixMoveJson(in); !moves.empty())
        out += ",\n \"matrix_move\": " + moves;
    if (smem::hasSharedMemoryOperands(in) && !in.tile) // a tile shows its register operands
        appendSharedMemory(out, in, choice, compact);
    detail::appendTensorMemory(out, in, compact); // tcgen05.mma: D's placements
    out += "\n}\n";
    return out;
}

} // namespace lanemap
