// The "tensor_memory" member of a tcgen05.mma JSON document (export_json_tmem.hpp): D's placements at the
// entry's N, one element per line (the largest, M = 256 x N = 256, has 65536), or as compact columns.
#include "export/export_json_tmem.hpp"

#include "export/export_json_compact.hpp"

#include "lanemap/tmem.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace lanemap::detail {

void appendTensorMemory(std::string& out, const Instruction& in, bool compact) {
    const Placement* d = in.placement(Space::TensorMemory, Operand::D);
    if (!d)
        return;
    const tmem::MmaShape& s = d->tensor()->mma;
    const tmem::LayoutRecord& rec = tmem::layoutOf(s);
    int columns = 0;
    std::vector<long long> row, col, cta, lane, column;
    const tmem::DataPath path(s);
    for (int m = 0; m < s.m; ++m)
        for (int n = 0; n < s.n; ++n) {
            const tmem::Placement p = path.d(m, n);
            row.push_back(m);
            col.push_back(n);
            cta.push_back(p.cta);
            lane.push_back(p.lane);
            column.push_back(p.column);
            columns = std::max(columns, p.column + 1);
        }
    nlohmann::ordered_json h;
    h["operand"] = "D";
    h["rows"] = s.m;
    h["cols"] = s.n;
    h["layout"] = std::string(tmem::toString(rec.layout));
    h["cta_group"] = s.ctaGroup;
    h["lane_alignment"] = s.laneAlignment;
    h["lanes"] = tmem::kLanes;
    h["columns"] = columns;
    h["source"] = "figure";
    std::string head = h.dump();
    head.pop_back();
    out += ",\n \"tensor_memory\": [\n  " + head + ", \"elements\": ";
    if (compact) {
        ColumnsWriter w(out, row.size(), "   ");
        w.ints("row", row);
        w.ints("col", col);
        w.ints("cta", cta);
        w.ints("lane", lane);
        w.ints("column", column);
        w.finish();
        out += "}\n ]";
        return;
    }
    out += '[';
    for (std::size_t i = 0; i < row.size(); ++i) {
        out += i ? ",\n   " : "\n   ";
        out += "{\"row\":" + std::to_string(row[i]) + ",\"col\":" + std::to_string(col[i]) +
               ",\"cta\":" + std::to_string(cta[i]) + ",\"lane\":" + std::to_string(lane[i]) +
               ",\"column\":" + std::to_string(column[i]) + "}";
    }
    out += "\n  ]}\n ]";
}

} // namespace lanemap::detail
