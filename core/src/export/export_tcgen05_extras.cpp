// Scale factors and sparse metadata of a tcgen05.mma view as JSON (export_tcgen05_extras.hpp).
#include "export/export_tcgen05_extras.hpp"

#include <string>

namespace lanemap::tmem {

namespace {
using tcgen05::kNotOnHardware;

nlohmann::ordered_json place(const tcgen05::TmemPlace& p) {
    return nlohmann::ordered_json::array({p.lane, p.column, p.lowBit});
}

void addScaleFactors(const View& v, const tcgen05::BlockScale& bs, nlohmann::ordered_json& j) {
    using namespace tcgen05;
    const ScaleVecRule& rule = ruleOf(bs.vec);
    j["block_scale"] = {{"scale_vec", std::string(toString(bs.vec))},
                        {"sfa_id", bs.sfaId},
                        {"sfb_id", bs.sfbId},
                        {"valid_ids", rule.ids},
                        {"id_rule", std::string(rule.idRule)},
                        {"factors_per_row", rule.factorsPerRow},
                        {"block_size", rule.blockSize}};
    nlohmann::ordered_json sf;
    sf["fields"] = {"lane", "column", "column_bit"};
    sf["note"] =
        "one entry per factor f of a row (A: m of the CTA's rows; B: n), each the four places of its "
        "copies, one per 32-lane subpartition; 8 bits each";
    for (const Operand op : {Operand::A, Operand::B}) {
        const bool a = op == Operand::A;
        const std::string key = a ? "A" : "B";
        if (std::string why = scaleFactorFinding(op, v.mma.m, v.mma.ctaGroup); !why.empty()) {
            j["findings"].push_back(why);
            continue;
        }
        nlohmann::ordered_json operand;
        operand["source"] = "PTX ISA §" + std::string(rule.section) + " " +
                            std::string(a ? rule.figureA : rule.figureB) + "; CUTLASS tmem_sf_frg (4x1); " +
                            std::string(kNotOnHardware);
        operand["id"] = a ? bs.sfaId : bs.sfbId;
        const int count = scaleFactorRows(op, v.mma.m, v.mma.n, v.mma.ctaGroup);
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (int i = 0; i < count; ++i) {
            nlohmann::ordered_json factors = nlohmann::ordered_json::array();
            for (int f = 0; f < rule.factorsPerRow; ++f) {
                nlohmann::ordered_json copies = nlohmann::ordered_json::array();
                for (const TmemPlace& p :
                     scaleFactorPlaces(v.mma.kind, bs.vec, a ? bs.sfaId : bs.sfbId, op, i, f))
                    copies.push_back(place(p));
                factors.push_back(std::move(copies));
            }
            rows.push_back(std::move(factors));
        }
        operand["rows"] = std::move(rows);
        sf[key] = std::move(operand);
    }
    j["scale_factors"] = std::move(sf);
}

void addMetadata(const View& v, nlohmann::ordered_json& j) {
    using namespace tcgen05;
    std::string why;
    const MetadataLayoutRecord* rec = metadataLayoutOf(v.mma.kind, v.mma.m, v.mma.ctaGroup, &why);
    if (!rec || !rec->place) {
        j["findings"].push_back("sparse metadata: " +
                                (rec ? std::string(rec->figure) + ": " + std::string(rec->finding) : why));
        return;
    }
    const SparseGranularity gr = sparseGranularity(v.mma.kind);
    nlohmann::ordered_json md;
    md["granularity"] = std::to_string(gr.nonZero) + ":" + std::to_string(gr.group);
    md["bits_per_group"] = gr.metadataBits;
    md["source"] = "PTX ISA §" + std::string(rec->section) + " " + std::string(rec->figure) + "; CUTLASS " +
                   std::string(rec->cutlass) + "; " + std::string(kNotOnHardware);
    md["selector"] = std::string(rec->selector);
    if (!rec->finding.empty())
        j["findings"].push_back("sparse metadata: " + std::string(rec->finding));
    md["fields"] = {"lane", "column", "column_bit"};
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (int m = 0; m < v.mma.m / v.mma.ctaGroup; ++m) {
        nlohmann::ordered_json groups = nlohmann::ordered_json::array();
        for (int g = 0; g < metadataGroupsPerRow(v.mma.kind); ++g)
            groups.push_back(place(sparseMetadataPlace(v.mma.kind, v.mma.m, v.mma.ctaGroup, m, g)));
        rows.push_back(std::move(groups));
    }
    md["rows"] = std::move(rows);
    j["metadata"] = std::move(md);
}
} // namespace

void addExtrasJson(const View& v, nlohmann::ordered_json& j) {
    const std::optional<tcgen05::BlockScale> def = tcgen05::defaultBlockScale(v.mma.kind);
    if (def)
        addScaleFactors(v, v.blockScale ? *v.blockScale : *def, j);
    if (v.mma.sparse)
        addMetadata(v, j);
}

} // namespace lanemap::tmem
