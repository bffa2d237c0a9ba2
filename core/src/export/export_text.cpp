#include "families/wmma/export_wmma.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/export.hpp"

#include "families/matrix_move/export_matrix_move.hpp"
#include "lanemap/matrix_move.hpp"
#include "lanemap/sparse.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace lanemap {

namespace {

char elementLetter(const FragmentLayout& op) {
    return static_cast<char>(
        std::tolower(static_cast<unsigned char>(op.name().empty() ? 'x' : op.name()[0])));
}

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::string padLeft(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

// Renders a labelled grid: header row with column numbers, then one line per row.
std::string renderGrid(int rows, int cols, const std::vector<std::string>& cells,
                       const std::string& colPrefix = "") {
    std::size_t width = 1;
    for (const std::string& c : cells)
        width = std::max(width, c.size());
    for (int c = 0; c < cols; ++c)
        width = std::max(width, (colPrefix + std::to_string(c)).size());
    const std::size_t rowLabel = std::to_string(rows - 1).size() + 1;
    std::ostringstream out;
    std::string header(rowLabel, ' ');
    for (int c = 0; c < cols; ++c)
        header += ' ' + pad(colPrefix + std::to_string(c), width);
    while (!header.empty() && header.back() == ' ')
        header.pop_back();
    out << header << '\n';
    for (int r = 0; r < rows; ++r) {
        std::string line = padLeft(std::to_string(r), rowLabel);
        for (int c = 0; c < cols; ++c)
            line += ' ' + pad(cells[static_cast<std::size_t>(r * cols + c)], width);
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << '\n';
    }
    return out.str();
}

std::string registerSummary(const FragmentLayout& op) {
    std::ostringstream s;
    s << op.name() << " (" << op.rows() << "x" << op.cols() << ", ." << toString(op.elementType())
      << "): " << op.registers() << " x " << op.registerBits() << "-bit register"
      << (op.registers() == 1 ? "" : "s") << " per thread, " << op.elementsPerRegister() << " element"
      << (op.elementsPerRegister() == 1 ? "" : "s") << " each";
    return s.str();
}

// Compressed sparse A: one cell per [firstcol..lastcol] range, listing the elements each thread keeps there
// (`T0:a0,a1`), like the PTX figures.
std::string chunkedGrid(const FragmentLayout& op) {
    int width = op.cols();
    for (const Element& e : op.elements())
        width = std::min(width, e.colLast - e.col + 1);
    const int ranges = op.cols() / width;
    std::vector<std::vector<const Element*>> owners(static_cast<std::size_t>(op.rows() * ranges));
    for (const Element& e : op.elements())
        owners[static_cast<std::size_t>(e.row * ranges + e.col / width)].push_back(&e);
    const char letter = elementLetter(op);
    std::vector<std::string> cells;
    for (const auto& list : owners) {
        std::string label;
        int thread = -1;
        for (const Element* e : list) { // sorted by (thread, index)
            if (e->thread != thread) {
                label += (label.empty() ? "T" : " T") + std::to_string(e->thread) + ':' + letter;
                thread = e->thread;
            } else {
                label += ',';
                label += letter;
            }
            label += std::to_string(e->index);
        }
        cells.push_back(label.empty() ? "." : label);
    }
    std::size_t cellWidth = 1;
    for (const std::string& c : cells)
        cellWidth = std::max(cellWidth, c.size());
    std::vector<std::string> heads;
    for (int r = 0; r < ranges; ++r)
        heads.push_back("[" + std::to_string(r * width) + ".." + std::to_string(r * width + width - 1) + "]");
    for (const std::string& h : heads)
        cellWidth = std::max(cellWidth, h.size());
    const std::size_t rowLabel = std::to_string(op.rows() - 1).size() + 1;
    std::ostringstream out;
    out << "compressed: each cell lists the elements a thread keeps from that column range; the metadata "
           "says "
           "which columns they are\n";
    std::string header(rowLabel, ' ');
    for (const std::string& h : heads)
        header += ' ' + pad(h, cellWidth);
    while (!header.empty() && header.back() == ' ')
        header.pop_back();
    out << header << '\n';
    for (int r = 0; r < op.rows(); ++r) {
        std::string line = padLeft(std::to_string(r), rowLabel);
        for (int c = 0; c < ranges; ++c)
            line += ' ' + pad(cells[static_cast<std::size_t>(r * ranges + c)], cellWidth);
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << '\n';
    }
    return out.str();
}

// One metadata grid: rows x chunks, each cell `T<k>: [hi..lo]` as in the PTX figures.
void renderMetadata(std::ostringstream& out, const MetadataSelector& sel, int rows, int cols, int chunk) {
    const int chunks = cols / chunk;
    std::vector<std::string> cells(static_cast<std::size_t>(rows * chunks));
    for (const MetadataField& f : sel.fields) {
        std::string& cell = cells[static_cast<std::size_t>(f.row * chunks + f.colFirst / chunk)];
        if (!cell.empty())
            cell += " / ";
        cell += 'T' + std::to_string(f.thread) + ": [" + std::to_string(f.bitHi) + ".." +
                std::to_string(f.bitLo) + "]";
    }
    for (std::string& c : cells)
        if (c.empty())
            c = ".";
    std::set<int> lanes;
    for (const MetadataField& f : sel.fields)
        lanes.insert(f.thread);
    std::size_t width = 1;
    for (const std::string& c : cells)
        width = std::max(width, c.size());
    for (int c = 0; c < chunks; ++c)
        width = std::max(
            width,
            ("[" + std::to_string(c * chunk) + ".." + std::to_string(c * chunk + chunk - 1) + "]").size());
    const std::size_t rowLabel = std::to_string(rows - 1).size() + 1;
    out << "lanes supplying metadata:";
    for (int lane : lanes)
        out << ' ' << lane;
    out << '\n';
    std::string header(rowLabel, ' ');
    for (int c = 0; c < chunks; ++c)
        header +=
            ' ' +
            pad("[" + std::to_string(c * chunk) + ".." + std::to_string(c * chunk + chunk - 1) + "]", width);
    while (!header.empty() && header.back() == ' ')
        header.pop_back();
    out << header << '\n';
    for (int r = 0; r < rows; ++r) {
        std::string line = padLeft(std::to_string(r), rowLabel);
        for (int c = 0; c < chunks; ++c)
            line += ' ' + pad(cells[static_cast<std::size_t>(r * chunks + c)], width);
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << '\n';
    }
}

} // namespace

std::string toTextGrid(const Instruction& in, const FragmentLayout& op) {
    std::ostringstream out;
    if (matrixMoveOf(in))
        out << matrixMoveSummary(in, op) << '\n';
    else
        out << registerSummary(op) << '\n';
    if (op.chunked() && op.matrices() == 1) {
        out << chunkedGrid(op);
        return out.str();
    }
    const char letter = elementLetter(op);
    for (int m = 0; m < op.matrices(); ++m) {
        if (op.matrices() > 1 && matrixMoveOf(in))
            out << matrixMoveTitle(in, m) << '\n';
        else if (op.matrices() > 1)
            out << "product " << m << " (quad-pair lanes " << 4 * m << ".." << 4 * m + 3 << ", " << 16 + 4 * m
                << ".." << 16 + 4 * m + 3 << ")\n";
        std::vector<std::string> cells(static_cast<std::size_t>(op.rows() * op.cols()));
        for (int r = 0; r < op.rows(); ++r)
            for (int c = 0; c < op.cols(); ++c) {
                std::string label;
                for (const Element& e : op.owners(r, c, m)) {
                    if (!label.empty())
                        label += '/';
                    label += 'T' + std::to_string(e.thread) + ':' + letter + std::to_string(e.index);
                }
                cells[static_cast<std::size_t>(r * op.cols() + c)] = label.empty() ? "." : label;
            }
        out << renderGrid(op.rows(), op.cols(), cells);
    }
    return out.str();
}

std::string metadataTextGrid(const Instruction& in, std::optional<int> selector) {
    if (!in.metadata)
        return {};
    const MetadataLayout& md = *in.metadata;
    const FragmentLayout* a = in.operand(Operand::A);
    const int rows = a ? a->rows() : in.m;
    const int cols = a ? a->cols() : in.k;
    const int chunk = md.chunkCols;
    std::ostringstream out;
    out << "metadata (" << md.granularity << "): one " << md.fieldBits << "-bit field per " << chunk
        << "-column chunk of A; `Tk: [hi..lo]` = bits hi..lo of lane k's metadata register\n";
    out << "valid field values (" << (in.ordered ? "::ordered_metadata" : "plain .sp") << "):";
    for (std::uint8_t v : md.validValues)
        out << ' ' << sparse::binary(v, md.fieldBits);
    out << '\n';
    for (const MetadataSelector& sel : md.selectors) {
        if (selector && *selector != sel.value)
            continue;
        out << "\nsparsity selector " << sel.value;
        if (!md.candidate.empty())
            out << " — candidate '" << md.candidate << "' (UNRESOLVED, inferred)";
        out << '\n';
        renderMetadata(out, sel, rows, cols, chunk);
    }
    for (const MetadataCandidate& c : md.candidates) {
        if (c.name == md.candidate)
            continue;
        for (const MetadataSelector& sel : c.selectors) {
            if (selector && *selector != sel.value)
                continue;
            out << "\nsparsity selector " << sel.value << " — alternative candidate '" << c.name
                << "' (UNRESOLVED, inferred): " << c.description << '\n';
            renderMetadata(out, sel, rows, cols, chunk);
        }
    }
    for (const std::string& note : md.notes)
        out << "note: " << note << '\n';
    return out.str();
}

std::string toText(const Instruction& in, std::optional<int> selector) {
    return toText(in, smem::Choice{}, selector);
}

std::string toText(const Instruction& in, const smem::Choice& choice, std::optional<int> selector) {
    std::ostringstream out;
    out << tile::nameOf(in) << "  (" << in.ptx << ")\n";
    if (in.tile)
        out << "tile: " << tile::factLine(*in.tile)
            << "; threads count over the CTA (T<thread>: warp = thread / 32, lane = thread % 32)\n";
    out << "PTX ISA 9.1 §" << in.section << "  #" << in.anchor << "  min sm_" << in.minSm
        << (in.scope == Scope::Warpgroup ? "a" : "") << "  " << in.threads
        << (in.threads == 1 ? " thread (" : " threads (") << toString(in.scope) << ")\n";
    for (const std::string& n : in.notes)
        out << "note: " << n << '\n';
    for (const Erratum& e : in.errata)
        out << "erratum " << e.id << " (" << toString(statusOf(in, e)) << "): " << e.summary
            << " — lanemap: " << e.lanemap << '\n';
    if (in.hardware && in.hardware->verdict == Verdict::Pass)
        out << "confirmed cell by cell by the " << describe(*in.hardware->run) << '\n';
    out << wmmaText(in);
    for (const FragmentLayout& op : in.operands)
        out << '\n' << toTextGrid(in, op);
    if (const std::string moves = matrixMoveText(in); !moves.empty())
        out << '\n' << moves;
    if (in.metadata)
        out << '\n' << metadataTextGrid(in, selector);
    if (smem::hasSharedMemoryOperands(in)) {
        std::string error;
        const std::vector<smem::SharedOperand> shared = smem::operands(in, choice, error);
        if (shared.size() == 2)
            out << '\n' << smem::toText(shared[1]);
        else
            out << "\nshared memory: " << error << '\n';
    }
    return out.str();
}

} // namespace lanemap
