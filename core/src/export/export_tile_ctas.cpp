// The documents of a tile of tcgen05.mma atoms (export_tile_ctas.hpp,
// docs/tiles.md#tiles-of-tcgen05mma-atoms).
#include "export/export_tile_ctas.hpp"

#include "lanemap/diagram_pair.hpp"
#include "lanemap/diagram_tmem.hpp"
#include "lanemap/query.hpp"
#include "lanemap/site.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/tile_ctas.hpp"
#include "lanemap/tmem.hpp"
#include "model/tile_json.hpp"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <sstream>
#include <stdexcept>

namespace lanemap::detail {

namespace {

using nlohmann::ordered_json;

std::string layoutWords(const smem::SharedOperand& op) {
    return std::string(smem::toString(op.layout.major())) + "-major, " +
           std::string(smem::toString(op.layout.swizzle())) + " swizzle";
}

// One operand, on one line but for its elements, one holder a line (a replicated element once per CTA): the
// largest tile has a million.
std::string operandJson(const Instruction& in, Operand operand, const Placement& placed) {
    const bool tensor = placed.space() == Space::TensorMemory, meta = operand == Operand::Metadata;
    ordered_json o;
    o["operand"] = std::string(toString(operand));
    o["space"] = tensor ? "tensor_memory" : "shared_memory";
    o["rows"] = placed.rows();
    o["cols"] = placed.cols();
    if (!tensor)
        if (const std::optional<smem::SharedOperand> part = tile::ctaPart(in, operand)) {
            o["cta_part"] = {part->rows, part->cols};
            o["layout"] = layoutWords(*part);
            o["bytes"] = part->layout.footprintBytes();
        }
    if (const std::optional<tcgen05::SparseGranularity> sparse = tile::sparsityOf(in)) {
        // A sparse atom's A is the compressed matrix: stored column j holds a kept element of group
        // floor(j / kept) of the row's K; the metadata has one field of `bits` per group.
        if (operand == Operand::A)
            o["compressed"] = {{"kept", sparse->nonZero}, {"group", sparse->group}};
        if (meta)
            o["fields"] = {{"group", sparse->group}, {"bits", sparse->metadataBits}};
    }
    o["element_fields"] =
        meta     ? ordered_json{"row", "col", "cta", "value", "cta_row", "cta_col", "lane", "column", "bit"}
        : tensor ? ordered_json{"row", "col", "cta", "value", "cta_row", "cta_col", "lane", "column"}
                 : ordered_json{"row", "col", "cta", "value", "cta_row", "cta_col", "byte", "bit"};
    std::string out = o.dump();
    out.pop_back();
    out += ", \"elements\": [";
    bool first = true;
    const auto row = [&](std::initializer_list<long long> values) {
        out += first ? "\n   [" : ",\n   [";
        first = false;
        bool firstValue = true;
        for (const long long v : values) {
            out += firstValue ? "" : ",";
            out += std::to_string(v);
            firstValue = false;
        }
        out += ']';
    };
    for (int r = 0; r < placed.rows(); ++r)
        for (int c = 0; c < placed.cols(); ++c)
            for (const tile::CtaHolding& h : tile::ctaHolders(in, operand, r, c)) {
                if (const TmemCell* cell = std::get_if<TmemCell>(&h.at); cell && meta)
                    row({r, c, h.cta, h.value, h.localRow, h.localCol, cell->lane, cell->column,
                         cell->bitLo});
                else if (cell)
                    row({r, c, h.cta, h.value, h.localRow, h.localCol, cell->lane, cell->column});
                else if (const SmemByte* b = std::get_if<SmemByte>(&h.at))
                    row({r, c, h.cta, h.value, h.localRow, h.localCol, b->address, b->bitLo});
            }
    return out + "\n  ]}";
}

std::string json(const Instruction& in) {
    ordered_json doc;
    doc["spec"] = tile::nameOf(in);
    doc["ptx"] = std::string(in.ptx);
    doc["section"] = std::string(in.section);
    doc["scope"] = "cluster";
    doc["ctas"] = in.tile->threads;
    doc["shape"] = {in.m, in.n, in.k};
    doc["tile"] = tile::tileJson(*in.tile);
    doc["source"] = "the PTX ISA's data-path layouts and shared-memory canonical layouts; no GPU has run "
                    "tcgen05 for lanemap (sm_100a)";
    std::string out = doc.dump(1);
    out.erase(out.rfind('}'));
    while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
        out.pop_back();
    out += ",\n \"operands\": [";
    bool first = true;
    for (const Operand o : {Operand::A, Operand::B, Operand::D, Operand::Metadata})
        if (const Placement* p = tile::placementOf(in, o)) {
            out += first ? "\n  " : ",\n  ";
            first = false;
            out += operandJson(in, o, *p);
        }
    out += "\n ]";
    if (const std::string note = tile::metadataNote(in); !note.empty())
        out += ",\n \"metadata\": " + ordered_json(note).dump();
    return out + "\n}\n";
}

std::string text(const Instruction& in) {
    std::ostringstream s;
    s << tile::nameOf(in) << '\n' << "  " << tile::factLine(*in.tile) << '\n';
    for (int cta = 0; cta < in.tile->threads; ++cta) {
        std::string error;
        if (const auto a = query::whatCta(in, cta, error))
            s << query::toText(in, *a);
    }
    // D, and a sparse atom's metadata, cell by cell: the CTAs that hold it and where in their Tensor Memory.
    for (const Operand operand : {Operand::D, Operand::Metadata}) {
        const Placement* tm = tile::placementOf(in, operand);
        if (!tm)
            continue;
        const bool meta = operand == Operand::Metadata;
        s << (meta ? "metadata in Tensor Memory: each cell (a group of K) is c<CTA> L<lane> C<column> b<low "
                     "bit>"
                   : "D in Tensor Memory: each cell is c<CTA> L<lane> C<column>")
          << " (one per CTA that holds it)\n";
        for (int m = 0; m < tm->rows(); ++m) {
            s << "  m " << m << ':';
            for (int n = 0; n < tm->cols(); ++n) {
                s << (n ? " |" : "");
                for (const Holding& h : tm->at(m, n)) {
                    const TmemCell& c = std::get<TmemCell>(h.at);
                    s << " c" << c.cta << " L" << c.lane << " C" << c.column;
                    if (meta)
                        s << " b" << c.bitLo;
                }
            }
            s << '\n';
        }
    }
    if (const std::string note = tile::metadataNote(in); !note.empty())
        s << "finding: " << note << '\n';
    return s.str();
}

} // namespace

bool exportTileOverCtas(const Instruction& in, ExportFormat format, const ExportOptions& options,
                        std::string& document, std::string& error) {
    if (!options.operands.empty() || options.colorBy != ColorBy::Lane || !options.lanes.empty() ||
        options.compact) {
        error =
            "a tile of tcgen05.mma atoms draws D per CTA in Tensor Memory and lists A, B and D per CTA: it "
            "takes no operand, colouring, lane filter or compact form";
        return false;
    }
    try {
        switch (format) {
        case ExportFormat::Json:
            document = json(in);
            return true;
        case ExportFormat::Text:
            document = text(in);
            return true;
        case ExportFormat::Svg:
            document = toSvg(buildTensorMemoryDiagram(in, options.palette));
            return true;
        case ExportFormat::Html: // the same picture, with the page's hover and pin
            document = htmlPage(in, {ColorBy::Lane, options.palette});
            return true;
        default:
            error = "a tile of tcgen05.mma atoms exports as json, txt, svg or html; '" +
                    std::string(toString(format)) + "' is not one of them";
            return false;
        }
    } catch (const std::invalid_argument& e) {
        error = e.what();
        return false;
    }
}

std::size_t ctaSharedMemoryCellCount(const Instruction& in) {
    std::size_t cells = 0;
    for (const Operand operand : {Operand::A, Operand::B})
        if (const std::optional<CtaParts> parts = ctaParts(in, operand))
            cells += static_cast<std::size_t>(parts->ctas) * sharedMemoryCellCount(parts->part, {});
    return cells;
}

void appendCtaSharedMemory(Diagram& d, const Instruction& in, Palette palette) {
    SharedMemoryDiagramOptions o;
    o.palette = palette;
    for (const Operand operand : {Operand::A, Operand::B})
        lanemap::appendCtaSharedMemory(d, in, operand, o);
}

} // namespace lanemap::detail
