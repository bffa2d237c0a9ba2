// The documents of an instance whose operand is placed cell by cell in memory with no register fragment (a
// TMA box: lanemap/export.hpp exportInstruction): each cell with its holding in every space, read from the
// placements alone, so any family that states such placements gets them with no code here.
#include "export/export_placement.hpp"

#include "lanemap/diagram.hpp"
#include "lanemap/svg.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>

namespace lanemap::detail {

namespace {

using ordered_json = nlohmann::ordered_json;

const Placement* firstIn(const Instruction& in, Space space) {
    for (const Placement& p : in.placements)
        if (p.space() == space)
            return &p;
    return nullptr;
}

std::string hex(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string json(const Instruction& in, const Placement& shared, const Placement* global) {
    ordered_json o;
    o["spec"] = in.spec;
    o["ptx"] = in.ptx;
    const Presentation& words = shared.presentation();
    if (!words.extentFact.empty())
        o["parameters"] = words.extentFact;
    o["element_type"] = std::string(toString(shared.elementType()));
    o["rows"] = shared.rows();
    o["cols"] = shared.cols();
    if (!words.rowAxis.empty())
        o["row_axis"] = words.rowAxis;
    if (!words.colAxis.empty())
        o["col_axis"] = words.colAxis;
    ordered_json elements = ordered_json::array();
    int fills = 0;
    // A placement over a cluster (a multicast): per CTA, the elements it holds and whose load brought them.
    const bool cluster = shared.clusterCtas() > 1;
    const bool loadsPerCta = global && global->clusterCtas() > 1;
    std::vector<std::map<int, int>> perCta(static_cast<std::size_t>(std::max(1, shared.clusterCtas())));
    for (int r = 0; r < shared.rows(); ++r)
        for (int c = 0; c < shared.cols(); ++c) {
            ordered_json e;
            e["box"] = {r, c};
            const std::vector<Holding> s = shared.at(r, c);
            e["smem_offset"] =
                s.empty() ? ordered_json() : ordered_json(std::get<SmemByte>(s.front().at).address);
            const std::vector<Holding> g = global ? global->at(r, c) : std::vector<Holding>{};
            // The load that brought it: a split's loads are told apart by their CTA; a fill element's load
            // is the one whose box holds its row.
            int from = -1;
            if (loadsPerCta && !g.empty())
                from = std::get<GlobalElement>(g.front().at).cta;
            if (cluster) {
                ordered_json ctas = ordered_json::array();
                for (const Holding& h : s) {
                    const int cta = std::get<SmemByte>(h.at).cta;
                    ctas.push_back(cta);
                    if (cta >= 0 && cta < static_cast<int>(perCta.size()))
                        ++perCta[static_cast<std::size_t>(cta)][from];
                }
                e["ctas"] = std::move(ctas);
                if (loadsPerCta)
                    e["from_cta"] = from >= 0 ? ordered_json(from) : ordered_json();
            }
            if (global) {
                if (g.empty()) {
                    ++fills;
                    e["row"] = nullptr;
                    e["col"] = nullptr;
                    e["fill"] = true;
                } else {
                    const GlobalElement& ge = std::get<GlobalElement>(g.front().at);
                    // row, col: the two innermost coordinates; coord: all of them, outermost first.
                    e["row"] = ge.rank >= 2 ? ge.coord[1] : 0;
                    e["col"] = ge.coord[0];
                    if (ge.rank > 2) {
                        ordered_json coord = ordered_json::array();
                        for (int i = ge.rank - 1; i >= 0; --i)
                            coord.push_back(ge.coord[static_cast<std::size_t>(i)]);
                        e["coord"] = coord;
                    }
                    e["global_offset"] = ge.offset;
                }
            }
            elements.push_back(std::move(e));
        }
    o["fill_elements"] = fills;
    if (cluster) {
        const int bytes = static_cast<int>((traits(shared.elementType()).bits + 7) / 8);
        ordered_json ctas = ordered_json::array();
        for (std::size_t cta = 0; cta < perCta.size(); ++cta) {
            int held = 0, fill = 0;
            ordered_json from = ordered_json::array();
            for (const auto& [load, count] : perCta[cta]) {
                held += count;
                if (load >= 0)
                    from.push_back({{"cta", load}, {"elements", count}});
                else
                    fill += count;
            }
            ordered_json one;
            one["cta"] = static_cast<int>(cta);
            one["elements"] = held;
            one["bytes"] = held * (bytes <= 1 ? 1 : bytes <= 2 ? 2 : bytes <= 4 ? 4 : 8);
            if (loadsPerCta) {
                one["from"] = std::move(from);
                one["fill_elements"] = fill;
            }
            ctas.push_back(std::move(one));
        }
        o["cluster"] = {{"ctas", shared.clusterCtas()}, {"per_cta", std::move(ctas)}};
    }
    o["elements"] = std::move(elements);
    return o.dump(1) + "\n";
}

std::string text(const Instruction& in, const Placement& shared, const Placement* global) {
    std::ostringstream out;
    const Presentation& words = shared.presentation();
    out << in.spec << "  (" << in.ptx << ")\n";
    if (!words.extentFact.empty())
        out << words.extentFact << '\n';
    out << "rows: " << (words.rowAxis.empty() ? "row" : words.rowAxis)
        << "; columns: " << (words.colAxis.empty() ? "column" : words.colAxis) << '\n';
    out << "each cell: the element's byte offset in shared memory (hex) and, after '=', its global "
           "(row,col); "
           "'fill' where the box leaves the tensor\n\n";
    for (int r = 0; r < shared.rows(); ++r) {
        out << "row " << r << ':';
        for (int c = 0; c < shared.cols(); ++c) {
            const std::vector<Holding> s = shared.at(r, c);
            out << ' ' << (s.empty() ? std::string("-") : hex(std::get<SmemByte>(s.front().at).address))
                << '=';
            if (!global) {
                out << '?';
                continue;
            }
            const std::vector<Holding> g = global->at(r, c);
            if (g.empty()) {
                out << "fill";
                continue;
            }
            const GlobalElement& ge = std::get<GlobalElement>(g.front().at);
            out << '(';
            for (int i = ge.rank - 1; i >= 0; --i)
                out << ge.coord[static_cast<std::size_t>(i)] << (i ? "," : "");
            out << ')';
        }
        out << '\n';
    }
    return out.str();
}

// One line per element and CTA that holds it: where it sits in the box and in shared memory, the global
// element it came from (empty with fill = 1 where the box leaves the tensor) and, where each CTA of a
// multicast loads its own box (split), whose load brought it. The columns as the json's fields.
std::string csv(const Instruction& in, const Placement& shared, const Placement* global) {
    std::ostringstream out;
    out << "spec,box_row,box_col,cta,from_cta,smem_offset,row,col,coord,global_offset,fill\n";
    const bool cluster = shared.clusterCtas() > 1;
    const bool loadsPerCta = global && global->clusterCtas() > 1;
    for (int r = 0; r < shared.rows(); ++r)
        for (int c = 0; c < shared.cols(); ++c) {
            const std::vector<Holding> g = global ? global->at(r, c) : std::vector<Holding>{};
            std::string fromCta;
            std::ostringstream source; // row,col,coord,global_offset,fill
            if (!global)
                source << ",,,,";
            else if (g.empty())
                source << ",,,,1";
            else {
                const GlobalElement& ge = std::get<GlobalElement>(g.front().at);
                if (loadsPerCta)
                    fromCta = std::to_string(ge.cta);
                source << (ge.rank >= 2 ? ge.coord[1] : 0) << ',' << ge.coord[0] << ',';
                for (int i = ge.rank - 1; i >= 0; --i)
                    source << ge.coord[static_cast<std::size_t>(i)] << (i ? " " : "");
                source << ',' << ge.offset << ",0";
            }
            for (const Holding& h : shared.at(r, c)) {
                const SmemByte& b = std::get<SmemByte>(h.at);
                out << in.spec << ',' << r << ',' << c << ',';
                if (cluster)
                    out << b.cta;
                out << ',' << fromCta << ',' << b.address << ',' << source.str() << '\n';
            }
        }
    return out.str();
}

} // namespace

bool exportPlacements(const Instruction& in, ExportFormat format, const ExportOptions& options,
                      std::string& document, std::string& error) {
    const Placement* shared = firstIn(in, Space::SharedMemory);
    const Placement* global = firstIn(in, Space::Global);
    if (!shared) {
        error = in.spec + " has no placement lanemap can export";
        return false;
    }
    if (!options.operands.empty() || options.colorBy != ColorBy::Lane || !options.lanes.empty() ||
        options.compact) {
        error = in.spec + " has no register operands: it takes no --operand, --color, --lanes or --compact";
        return false;
    }
    try {
        switch (format) {
        case ExportFormat::Json:
            document = json(in, *shared, global);
            return true;
        case ExportFormat::Text:
            document = text(in, *shared, global);
            return true;
        case ExportFormat::Svg: {
            SharedMemoryDiagramOptions o;
            o.palette = options.palette;
            Diagram d = buildSharedMemoryDiagram(*shared, global, o);
            d.title =
                in.spec; // the document's title, as every instruction's SVG has (its heading says the box)
            document = toSvg(d);
            return true;
        }
        case ExportFormat::Csv:
            document = csv(in, *shared, global);
            return true;
        default:
            error = in.spec + " has no register operands: it exports as json, txt, svg or csv; '" +
                    std::string(toString(format)) + "' is not one of them";
            return false;
        }
    } catch (const std::invalid_argument& e) {
        error = e.what();
        return false;
    }
}

} // namespace lanemap::detail
