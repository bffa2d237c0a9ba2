// The tcgen05.mma views of tmem.hpp: where D (or A) sits in Tensor Memory, and composed with a tcgen05.ld or
// tcgen05.st, which thread and register holds each element (docs/reference/tcgen05.md).

#include "lanemap/tmem.hpp"

#include "export/export_tcgen05_extras.hpp"
#include "lanemap/diagram_tmem.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>
#include <sstream>
#include <vector>

namespace lanemap::tmem {

namespace {

constexpr std::string_view kEvidence =
    "not confirmed on hardware (needs sm_100a; no Blackwell GPU has run lanemap's probe): placements are the "
    "ISA's data-path figures, cross-checked with CUTLASS's SM100 traits";

std::optional<tcgen05::ScaleVec> vecOf(const View& v) {
    return v.blockScale ? std::optional(v.blockScale->vec) : std::nullopt;
}

bool composesA(const View& v) {
    return v.access && v.access->op == Op::St;
}

// Rows x columns of the matrix shown: D is M x N, A (with a tcgen05.st) is M x K.
int colsOf(const View& v) {
    return composesA(v) ? kOf(v.mma.kind, v.mma.sparse) / (v.mma.sparse ? 2 : 1) : v.mma.n;
}

Holder holderAt(const View& v, int m, int c) {
    return composesA(v) ? whoHoldsA(v.mma, *v.access, m, c, aElementBits(v.mma.kind))
                        : whoHoldsD(v.mma, *v.access, m, c);
}

Placement placementAt(const View& v, int m, int c) {
    return composesA(v) ? placeA(v.mma, m, c, aElementBits(v.mma.kind)) : placeD(v.mma, m, c);
}

std::vector<std::string> findings(const LayoutRecord& rec) {
    std::vector<std::string> out;
    if (rec.layout == Layout::E)
        out.emplace_back(
            "ambiguity: the ISA's table gives layout E's organisation as \"2x3\"; its figure draws "
            "two lane halves of N/2 columns (2x2), which lanemap shows (CUTLASS's tmem_frg_ws "
            "M=64 atom agrees)");
    if (rec.halfDatapath)
        out.emplace_back(
            "ambiguity: \"lane alignment 0 or 16\" is read as the first lane used in each 32-lane "
            "subpartition (16: the upper 16 lanes; CUTLASS's NonInterleaved tmem_frg skips the first "
            "16); A, D and the sparsity metadata must use the same alignment");
    if (rec.layout == Layout::C)
        out.emplace_back(
            "naming: the ISA calls this layout C (M=128, cta_group::2, sparse A, half datapath); "
            "TileLang's docstring gives the name C to a cta_group::2 \"1x4\" atom (CUTLASS's 2SM "
            "M=32-per-CTA atom) instead; lanemap follows the ISA's table");
    return out;
}

// Rows x columns of cells under a header of column numbers, each row led by its number.
void writeGrid(std::ostream& out, int rows, int cols, const std::vector<std::string>& cells) {
    std::size_t width = 1;
    for (const std::string& s : cells)
        width = std::max(width, s.size());
    out << "    ";
    for (int c = 0; c < cols; ++c) {
        const std::string h = std::to_string(c);
        out << ' ' << h << std::string(width - std::min(width, h.size()), ' ');
    }
    out << '\n';
    for (int m = 0; m < rows; ++m) {
        const std::string r = std::to_string(m);
        out << std::string(4 - std::min<std::size_t>(4, r.size()), ' ') << r;
        for (int c = 0; c < cols; ++c) {
            const std::string& s = cells[static_cast<std::size_t>(m * cols + c)];
            out << ' ' << s << std::string(width - s.size(), ' ');
        }
        out << '\n';
    }
}

// A scale-factor or metadata table (tensorMemoryExtras, the panel's own words): one row per row m (column n
// for B's factors), one column per factor or group, each cell where that element sits, its copies' lanes
// together: "L5,37,69,101 C0[7..0]".
void writeExtra(std::ostream& out, const TensorMemoryGrid& g) {
    int rows = 0, cols = 0;
    for (const TensorMemoryElement& e : g.elements) {
        rows = std::max(rows, e.element + 1);
        cols = std::max(cols, e.index + 1);
    }
    // Per cell, its places in the order the table gives them; lanes sharing a column and bits go together.
    std::vector<std::vector<Placement>> places(static_cast<std::size_t>(rows * cols));
    for (const TensorMemoryElement& e : g.elements)
        places[static_cast<std::size_t>(e.element * cols + e.index)].push_back(e.at);
    std::vector<std::string> cells;
    cells.reserve(places.size());
    for (const std::vector<Placement>& cell : places) {
        std::string s;
        std::vector<bool> done(cell.size());
        for (std::size_t i = 0; i < cell.size(); ++i) {
            if (done[i])
                continue;
            s += (s.empty() ? "L" : " / L") + std::to_string(cell[i].lane);
            for (std::size_t j = i + 1; j < cell.size(); ++j)
                if (!done[j] && cell[j].column == cell[i].column && cell[j].bit == cell[i].bit) {
                    s += ',' + std::to_string(cell[j].lane);
                    done[j] = true;
                }
            s += " C" + std::to_string(cell[i].column);
            if (g.elementBits < 32)
                s += '[' + std::to_string(cell[i].bit + g.elementBits - 1) + ".." +
                     std::to_string(cell[i].bit) + ']';
        }
        cells.push_back(s.empty() ? "." : std::move(s));
    }
    out << '\n' << g.title << '\n' << g.subtitle << '\n' << "source: " << g.source << '\n';
    out << "cell: L<TMEM lane>[,<lane of each copy>] C<TMEM column>[<bits>] of " << g.label << '('
        << g.rowName << ',' << g.colName << "); rows " << g.rowName << ", columns " << g.colName << '\n';
    out << g.label << " (" << rows << "x" << cols << ")\n";
    writeGrid(out, rows, cols, cells);
}

} // namespace

int aElementBits(MmaKind kind) {
    switch (kind) {
    case MmaKind::F16:
        return 16;
    case MmaKind::TF32:
        return 32;
    case MmaKind::MXF4:
    case MmaKind::MXF4NVF4:
        return 4;
    default:
        return 8;
    }
}

std::string validate(const View& v) {
    if (std::string why = validate(v.mma); !why.empty())
        return why;
    if (v.blockScale) {
        if (std::string why = tcgen05::validate(v.mma.kind, *v.blockScale); !why.empty())
            return why;
    }
    if (!v.access)
        return {};
    if (v.access->op == Op::Ld)
        return validateComposition(v.mma, *v.access);
    if (std::string why = validate(*v.access); !why.empty())
        return why;
    const Layout layout = layoutOf(v.mma).layout;
    if (layout != Layout::A && layout != Layout::D && layout != Layout::F)
        return "A in Tensor Memory is modelled for layouts A, D and F only (where CUTLASS's A atom is D's); "
               "layout " +
               std::string(toString(layout)) +
               " is not (CUTLASS duplicates A over both lane "
               "halves for cta_group::2 M=128, and the ISA's A figures are not transcribed)";
    if (v.access->packed)
        return "A in Tensor Memory is packed 32 / bits elements a column: store it without .unpack::16b";
    if (v.access->split >= 0)
        return "composition uses the default immHalfSplitoff";
    return {};
}

std::string viewText(const View& v) {
    const LayoutRecord& rec = layoutOf(v.mma);
    std::ostringstream out;
    out << specOf(v.mma, true) << "  (" << ptxOf(v.mma, vecOf(v))
        << "; M and N in the instruction descriptor)\n";
    if (const std::optional<tcgen05::BlockScale> def = tcgen05::defaultBlockScale(v.mma.kind)) {
        const tcgen05::BlockScale& bs = v.blockScale ? *v.blockScale : *def;
        out << "block scale: ." << tcgen05::toString(bs.vec) << ", SFA ID " << bs.sfaId << ", SFB ID "
            << bs.sfbId << (v.blockScale ? "" : " (the default; --scale-vec, --sfa-id, --sfb-id choose)")
            << '\n';
    }
    out << "data-path layout " << toString(rec.layout) << " (" << rec.organisation
        << "), PTX ISA 9.1 §9.7.16.10.5 " << rec.figure << "; CUTLASS " << rec.cutlass << '\n';
    out << "note: " << kEvidence << '\n';
    for (const std::string& f : findings(rec))
        out << "note: " << f << '\n';
    // The scale factors and metadata, as the Tensor Memory panels draw them; what no table places is a
    // finding here, ahead of the grids.
    const TensorMemoryExtras extras = tensorMemoryExtras(v.mma, v.blockScale);
    for (const std::string& f : extras.findings)
        out << f << '\n';
    const bool a = composesA(v);
    if (v.access)
        out << (a ? "A stored by " : "D loaded by ") << ptxOf(*v.access)
            << " from every warp of the warpgroup" << (v.mma.ctaGroup == 2 ? " of each CTA" : "")
            << ", at taddr lane 32 w"
            << (recordOf(v.access->shape).lanes == 16 ? " (+16 for the upper half)" : "") << ", column c * "
            << columnsOf(*v.access) << "\ncell: w<warp> T<lane of the warp> r<register>[.h: bits 31-16]"
            << (v.mma.ctaGroup == 2 ? ", prefixed c<CTA of the pair>" : "") << '\n';
    else
        out << "cell: " << (v.mma.ctaGroup == 2 ? "c<CTA of the pair> " : "")
            << "L<TMEM lane> C<TMEM column> (of D[m][n]; add the address of d_tmem)\n";
    const int rows = v.mma.m, cols = colsOf(v);
    out << '\n' << (a ? "A" : "D") << " (" << rows << "x" << cols << ")\n";
    std::vector<std::string> cells(static_cast<std::size_t>(rows * cols));
    for (int m = 0; m < rows; ++m)
        for (int c = 0; c < cols; ++c) {
            std::string s;
            if (v.access) {
                const Holder h = holderAt(v, m, c);
                if (v.mma.ctaGroup == 2)
                    s += "c" + std::to_string(h.cta) + " ";
                s += "w" + std::to_string(h.warp) + " T" + std::to_string(h.thread) + " r" +
                     std::to_string(h.reg);
                if (h.bit == 16 && (v.access->packed || aElementBits(v.mma.kind) == 16))
                    s += ".h";
                else if (h.bit)
                    s += ":b" + std::to_string(h.bit);
            } else {
                const Placement p = placementAt(v, m, c);
                if (v.mma.ctaGroup == 2)
                    s += "c" + std::to_string(p.cta) + " ";
                s += "L" + std::to_string(p.lane) + " C" + std::to_string(p.column);
            }
            cells[static_cast<std::size_t>(m * cols + c)] = std::move(s);
        }
    writeGrid(out, rows, cols, cells);
    for (const TensorMemoryGrid& g : extras.grids)
        writeExtra(out, g);
    return out.str();
}

std::string viewJson(const View& v) {
    const LayoutRecord& rec = layoutOf(v.mma);
    nlohmann::ordered_json j;
    j["spec"] = specOf(v.mma, true);
    j["ptx"] = ptxOf(v.mma, vecOf(v));
    j["family"] = "tcgen05.mma";
    j["shape"] = {{"m", v.mma.m}, {"n", v.mma.n}, {"k", kOf(v.mma.kind, v.mma.sparse)}};
    j["cta_group"] = v.mma.ctaGroup;
    j["ws"] = v.mma.ws;
    j["sparse"] = v.mma.sparse;
    j["lane_alignment"] = v.mma.laneAlignment;
    j["min_sm"] = 100;
    j["layout"] = {{"name", std::string(toString(rec.layout))},
                   {"organisation", std::string(rec.organisation)},
                   {"half_datapath", rec.halfDatapath},
                   {"figure", std::string(rec.figure)},
                   {"section", "9.7.16.10.5"},
                   {"cutlass", std::string(rec.cutlass)}};
    j["source"] = "figure";
    j["evidence"] = std::string(kEvidence);
    j["findings"] = findings(rec);
    const bool a = composesA(v);
    j["operand"] = a ? "A" : "D";
    if (v.access)
        j["access"] = {{"spec", specOf(*v.access)},
                       {"ptx", ptxOf(*v.access)},
                       {"registers", registersOf(*v.access)},
                       {"columns", columnsOf(*v.access)}};
    // One row per matrix row: each element's CTA, lane and column, and with an access its warp, thread,
    // register, bit and the access's taddr lane and column.
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (int m = 0; m < v.mma.m; ++m) {
        nlohmann::ordered_json row = nlohmann::ordered_json::array();
        for (int c = 0; c < colsOf(v); ++c) {
            const Placement p = placementAt(v, m, c);
            nlohmann::ordered_json e = nlohmann::ordered_json::array({p.cta, p.lane, p.column, p.bit});
            if (v.access) {
                const Holder h = holderAt(v, m, c);
                for (const int x : {h.warp, h.thread, h.reg, h.bit, h.address.lane, h.address.column})
                    e.push_back(x);
            }
            row.push_back(std::move(e));
        }
        rows.push_back(std::move(row));
    }
    j["element_fields"] =
        v.access
            ? std::vector<std::string>{"cta",    "lane",     "column",       "column_bit", "warp",
                                       "thread", "register", "register_bit", "taddr_lane", "taddr_column"}
            : std::vector<std::string>{"cta", "lane", "column", "column_bit"};
    j["elements"] = std::move(rows);
    addExtrasJson(v, j); // scale factors, sparse metadata
    return j.dump(1) + "\n";
}

} // namespace lanemap::tmem
