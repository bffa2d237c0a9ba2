#include "families/wmma/export_wmma.hpp"

#include "lanemap/wmma.hpp"

namespace lanemap {

namespace {
std::string multiplicity(const FragmentLayout& op) {
    const int slots = static_cast<int>(op.elements().size());
    const int unique = op.uniqueCells();
    std::string s = std::string(op.name()) + ": num_elements " + std::to_string(op.elementsPerThread()) +
                    " per lane (" + std::to_string(slots) + " slots in the warp), " + std::to_string(unique) +
                    " unique cells";
    if (op.maxOwners() > 1)
        s += ", each held up to " + std::to_string(op.maxOwners()) +
             " times (a cell held twice lists both holders)";
    return s;
}
} // namespace

std::string wmmaText(const Instruction& in) {
    if (!in.family->discovered)
        return {};
    std::string out;
    for (const FragmentLayout& op : in.operands)
        out += "multiplicity " + multiplicity(op) + '\n';
    for (const wmma::MmaRelation& r : wmma::mmaRelations(in))
        out += "relation (computed from the placements): " + wmma::describe(r) + '\n';
    return out;
}

nlohmann::ordered_json wmmaJson(const Instruction& in) {
    if (!in.family->discovered)
        return nullptr;
    nlohmann::ordered_json j;
    j["layout_source"] = in.discovery ? "discovered on hardware" : "not discovered";
    j["unspecified"] = std::string(wmma::kUnspecified);
    if (in.discovery) {
        const wmma::DiscoveryReport& r = in.discovery->report;
        j["observed"] = {{"sass_target", r.sassTarget},
                         {"device", r.device.name},
                         {"sm", r.device.sm},
                         {"driver", r.device.driver},
                         {"cuda_runtime", r.device.cudaRuntime},
                         {"date", r.date},
                         {"report", in.discovery->file},
                         {"other_targets", "may differ"}};
    } else {
        j["not_discovered"] = std::string(wmma::kNotDiscovered);
    }
    nlohmann::ordered_json ops = nlohmann::ordered_json::array();
    for (const FragmentLayout& op : in.operands)
        ops.push_back({{"operand", op.name()},
                       {"num_elements", op.elementsPerThread()},
                       {"slots", op.elements().size()},
                       {"unique_cells", op.uniqueCells()},
                       {"max_holders", op.maxOwners()}});
    j["multiplicity"] = std::move(ops);
    nlohmann::ordered_json rel = nlohmann::ordered_json::array();
    for (const wmma::MmaRelation& r : wmma::mmaRelations(in)) {
        nlohmann::ordered_json tiles = nlohmann::ordered_json::array();
        for (const wmma::MmaTile& t : r.tiles)
            tiles.push_back({{"row0", t.row0}, {"col0", t.col0}, {"elements", t.elements}});
        rel.push_back({{"operand", toString(r.operand)},
                       {"mma", r.mmaSpec},
                       {"tiles", std::move(tiles)},
                       {"text", wmma::describe(r)}});
    }
    j["mma_relations"] = std::move(rel);
    return j;
}

} // namespace lanemap
