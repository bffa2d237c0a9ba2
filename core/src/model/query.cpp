#include "lanemap/query.hpp"

#include "lanemap/excerpt.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/tile_ctas.hpp"
#include "lanemap/tmem.hpp"
#include "model/tile_json.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>

namespace lanemap::query {

namespace {

using nlohmann::ordered_json;

Holding holding(const FragmentLayout& op, const Element& e) {
    Holding h;
    h.operand = op.operand();
    h.thread = e.thread;
    h.index = e.index;
    h.reg = e.reg;
    h.bitLo = e.bit;
    h.bitHi = e.bit + op.elementBits() - 1;
    h.matrix = e.matrix;
    h.row = e.row;
    h.col = e.col;
    h.colLast = e.colLast;
    return h;
}

// Every operand name the instruction answers `where` for.
std::string operandNames(const Instruction& in) {
    std::string s;
    for (const FragmentLayout& op : in.operands)
        (s += s.empty() ? "" : ", ") += op.name();
    if (smem::hasSharedMemoryOperands(in))
        s += ", B (shared memory)";
    return s;
}

std::optional<smem::SharedOperand> sharedB(const Instruction& in) {
    if (!smem::hasSharedMemoryOperands(in))
        return std::nullopt;
    std::string error;
    std::vector<smem::SharedOperand> shared = smem::operands(in, smem::Choice{}, error);
    if (shared.size() < 2)
        return std::nullopt;
    return shared[1];
}

SharedHolding sharedHolding(const smem::SharedOperand& b, int row, int col) {
    const smem::Placement p = b.layout.placement(b.toLayout(row, col).mn, b.toLayout(row, col).k);
    return SharedHolding{Operand::B, row, col, p.address, p.bit};
}

std::string cellName(int row, int col) {
    return "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

bool inRange(int value, int count, const char* what, const std::string& owner, std::string& error) {
    if (value >= 0 && value < count)
        return true;
    error = std::string(what) + " " + std::to_string(value) + " is outside " + owner + "; valid: 0.." +
            std::to_string(count - 1);
    return false;
}

void appendOwners(const FragmentLayout& op, int row, int col, int matrix, std::vector<Holding>& out,
                  std::set<std::pair<int, int>>& seen) {
    for (const Element& e : op.owners(row, col, matrix)) {
        if (seen.insert({static_cast<int>(op.operand()) * 1000 + e.thread, e.index}).second)
            out.push_back(holding(op, e));
    }
}

std::string holderLine(const Instruction& in, const Holding& h) {
    std::ostringstream s;
    s << (in.scope != Scope::Warp ? "thread " : "lane ") << h.thread;
    if (in.tile && in.tile->atomThreads == kWarpgroupSize)
        s << " (warpgroup " << h.thread / kWarpgroupSize << ", warp " << warpOf(h.thread) << ", lane "
          << laneOf(h.thread) << ")";
    else if (in.scope != Scope::Warp)
        s << " (warp " << warpOf(h.thread) << ", lane " << laneOf(h.thread) << ")";
    s << "  register " << h.reg << "  bits [" << h.bitHi << ":" << h.bitLo << "]  element "
      << static_cast<char>(std::tolower(static_cast<unsigned char>(toString(h.operand)[0]))) << h.index;
    s << "  " << toString(h.operand) << cellName(h.row, h.col);
    if (h.colLast != h.col)
        s << ".." << h.colLast << " (chunk)";
    if (h.matrix >= 0)
        s << " of product " << h.matrix;
    return s.str();
}

ordered_json holdingJson(const Instruction& in, const Holding& h) {
    ordered_json o;
    o["operand"] = std::string(toString(h.operand));
    o["thread"] = h.thread;
    o["lane"] = laneOf(h.thread);
    o["warp"] = warpOf(h.thread);
    if (in.tile && in.tile->atomThreads == kWarpgroupSize)
        o["warpgroup"] = h.thread / kWarpgroupSize;
    o["register"] = h.reg;
    o["bits"] = {h.bitHi, h.bitLo};
    o["element"] = h.index;
    o["row"] = h.row;
    o["col"] = h.col;
    if (h.colLast != h.col)
        o["col_last"] = h.colLast;
    if (h.matrix >= 0)
        o["matrix"] = h.matrix;
    return o;
}

ordered_json sharedJson(const SharedHolding& s) {
    ordered_json o;
    o["operand"] = std::string(toString(s.operand));
    o["row"] = s.row;
    o["col"] = s.col;
    o["shared_memory"] = "K-major, 128B swizzle";
    o["byte"] = s.address;
    if (s.bit)
        o["bit"] = s.bit;
    return o;
}

// A tcgen05.mma view holds no register operand: D sits in Tensor Memory, A and B in shared memory (or A in
// Tensor Memory too). `where` said "valid operands: " (an empty list), `what` printed a bare header and exit
// 0, `feeds` "has no D operand"; they say where D is, and which command answers.
bool inTensorMemory(const Instruction& in, std::string& error, const std::string& asked) {
    if (!in.hasSpace(Space::TensorMemory))
        return false;
    error = in.spec + " keeps D in Tensor Memory, not in registers: " + asked + "; `lanemap-cli show " +
            in.spec + "` gives the Tensor Memory lane and column of each D[m][n], and `show " + in.spec +
            " --ld SHAPE` (e.g. --ld 32x32b.x8) the thread and register a tcgen05.ld moves it to; `where " +
            in.spec + " A|B|D ROW COL` names the CTA of the pair that holds an element";
    return true;
}

// The Tensor Memory placement of a tcgen05.mma view (D, or A with --st); nullptr elsewhere.
const Placement* tensorMemoryOf(const Instruction& in) {
    for (const Placement& p : in.placements)
        if (p.space() == Space::TensorMemory && p.tensor())
            return &p;
    return nullptr;
}

// `where` of a tcgen05.mma: which CTA of the pair holds the element and where in its Tensor Memory or shared
// memory. D (and A where the view places A in Tensor Memory) from the Tensor Memory placement, whose cells
// name their CTA; A and B from one CTA's part in shared memory (the family's sharedOperand: M/ctaGroup rows
// of A, N/ctaGroup columns of B), the CTA being the part the row (A) or column (B) falls in.
std::optional<WhereAnswer> wherePair(const Instruction& in, const Placement& tensor, Operand operand, int row,
                                     int col, std::string& error) {
    WhereAnswer answer{operand, row, col, {}, {}, {}, {}};
    const int ctas = tensor.tensor()->mma.ctaGroup;
    if (const Placement* tm = in.placement(Space::TensorMemory, operand)) {
        const std::string name = std::string(toString(operand)) + " (" + std::to_string(tm->rows()) + "x" +
                                 std::to_string(tm->cols()) + ")";
        if (!inRange(row, tm->rows(), "row", name, error) || !inRange(col, tm->cols(), "column", name, error))
            return std::nullopt;
        const int rowsPerCta = tm->rows() / ctas;
        for (const lanemap::Holding& h : tm->at(row, col)) {
            const TmemCell& c = std::get<TmemCell>(h.at);
            PairHolding p;
            p.operand = operand;
            p.cta = c.cta;
            p.ctas = ctas;
            p.first = c.cta * rowsPerCta;
            p.count = rowsPerCta;
            p.localRow = row - p.first;
            p.localCol = col;
            p.lane = c.lane;
            p.column = c.column;
            p.bitLo = c.bitLo;
            p.bits = c.bits;
            answer.pair.push_back(p);
        }
        return answer;
    }
    if ((operand != Operand::A && operand != Operand::B) || !in.family || !in.family->sharedOperand) {
        error =
            "no operand " + std::string(toString(operand)) + " in " + in.spec + "; valid operands: A, B, D";
        return std::nullopt;
    }
    Placement part;
    const smem::Choice choice = in.params.smem.value_or(smem::Choice{});
    if (!in.family->sharedOperand(in, operand, choice, 0, 0, part, error) || !part.shared())
        return std::nullopt;
    const smem::SharedOperand& op = *part.shared();
    const bool a = operand == Operand::A;
    // The whole operand: A is M x (its part's K), B is K x N; a CTA's part splits M (A) or N (B).
    const int rows = a ? op.rows * ctas : op.rows, cols = a ? op.cols : op.cols * ctas;
    const std::string name = std::string(toString(operand)) + " (" + std::to_string(rows) + "x" +
                             std::to_string(cols) + (op.compressed ? ", compressed K/2" : "") + ")";
    if (!inRange(row, rows, "row", name, error) || !inRange(col, cols, "column", name, error))
        return std::nullopt;
    PairHolding p;
    p.operand = operand;
    p.space = Space::SharedMemory;
    p.ctas = ctas;
    p.count = a ? op.rows : op.cols;
    p.cta = (a ? row : col) / p.count;
    p.first = p.cta * p.count;
    p.localRow = a ? row - p.first : row;
    p.localCol = a ? col : col - p.first;
    const smem::Coord at = op.toLayout(p.localRow, p.localCol);
    const smem::Placement placed = op.layout.placement(at.mn, at.k);
    p.address = placed.address;
    p.bit = placed.bit;
    p.layout = std::string(smem::toString(op.layout.major())) + "-major, " +
               std::string(smem::toString(op.layout.swizzle())) + " swizzle";
    answer.pair.push_back(p);
    return answer;
}

// `where` of a tile of tcgen05.mma atoms: every CTA of the cluster that holds the element, and where in it.
std::optional<WhereAnswer> whereOverCtas(const Instruction& in, Operand operand, int row, int col,
                                         std::string& error) {
    WhereAnswer answer{operand, row, col, {}, {}, {}, {}};
    const Placement* placed = tile::placementOf(in, operand);
    if (!placed) {
        std::string note = tile::metadataNote(in);
        error = "no operand " + std::string(toString(operand)) + " in " + tile::nameOf(in) +
                "; valid operands: A, B, D" +
                (in.placement(Space::TensorMemory, Operand::Metadata) ? ", metadata" : "") +
                (operand == Operand::Metadata && !note.empty() ? " (" + note + ")" : "");
        return std::nullopt;
    }
    const std::string name = std::string(toString(operand)) + " (" + std::to_string(placed->rows()) + "x" +
                             std::to_string(placed->cols()) + ")";
    if (!inRange(row, placed->rows(), "row", name, error) ||
        !inRange(col, placed->cols(), "column", name, error))
        return std::nullopt;
    const std::optional<smem::SharedOperand> part =
        placed->space() == Space::SharedMemory ? tile::ctaPart(in, operand) : std::nullopt;
    if (operand == Operand::A)
        answer.keptOf = tile::keptRange(in, col);
    for (const tile::CtaHolding& h : tile::ctaHolders(in, operand, row, col)) {
        PairHolding p;
        p.operand = operand;
        p.tile = true;
        p.cta = h.cta;
        p.ctas = in.tile->threads;
        p.atomCta = h.atomCta;
        p.value = h.value;
        p.atom = {h.copy.wm, h.copy.wn, h.copy.wk};
        p.localRow = h.localRow;
        p.localCol = h.localCol;
        if (const TmemCell* c = std::get_if<TmemCell>(&h.at)) {
            p.lane = c->lane;
            p.column = c->column;
            p.bitLo = c->bitLo;
            p.bits = c->bits;
        } else if (const SmemByte* b = std::get_if<SmemByte>(&h.at)) {
            p.space = Space::SharedMemory;
            p.address = b->address;
            p.bit = b->bitLo;
            if (part)
                p.layout = std::string(smem::toString(part->layout.major())) + "-major, " +
                           std::string(smem::toString(part->layout.swizzle())) + " swizzle";
        }
        answer.pair.push_back(p);
    }
    return answer;
}

// `what --cta` of a tile of tcgen05.mma atoms: the rows (A, D) or columns (B) of the tile CTA `cta` holds,
// read from the tile's placements, whose holdings name their CTA.
std::optional<CtaAnswer> whatCtaOverCtas(const Instruction& in, int cta, std::string& error) {
    CtaAnswer answer;
    answer.cta = cta;
    answer.ctas = in.tile->threads;
    if (!inRange(cta, answer.ctas, "CTA",
                 tile::nameOf(in) + " (" + std::to_string(answer.ctas) + " CTAs of a cluster)", error))
        return std::nullopt;
    for (const Operand operand : {Operand::A, Operand::B, Operand::D, Operand::Metadata}) {
        const Placement* placed = tile::placementOf(in, operand);
        if (!placed)
            continue;
        const bool d = placed->space() == Space::TensorMemory;
        CtaPart part;
        part.operand = operand;
        part.space = placed->space();
        part.byColumns = operand == Operand::B;
        part.laneLo = part.columnLo = 1 << 30;
        part.laneHi = part.columnHi = -1;
        const int lines = part.byColumns ? placed->cols() : placed->rows();
        const int across = part.byColumns ? placed->rows() : placed->cols();
        // The lines (rows of A and D, columns of B) the CTA holds, and across them the columns (rows) it
        // holds: D of an atom layout along N is split by columns too.
        std::vector<char> held(static_cast<std::size_t>(lines), 0),
            heldAcross(static_cast<std::size_t>(across), 0);
        for (int i = 0; i < lines; ++i)
            for (int j = 0; j < across; ++j) {
                const int r = part.byColumns ? j : i, c = part.byColumns ? i : j;
                for (const lanemap::Holding& h : placed->at(r, c)) {
                    if (const TmemCell* cell = std::get_if<TmemCell>(&h.at); cell && cell->cta == cta) {
                        held[static_cast<std::size_t>(i)] = heldAcross[static_cast<std::size_t>(j)] = 1;
                        part.laneLo = std::min(part.laneLo, cell->lane);
                        part.laneHi = std::max(part.laneHi, cell->lane);
                        part.columnLo = std::min(part.columnLo, cell->column);
                        part.columnHi = std::max(part.columnHi, cell->column);
                    } else if (const SmemByte* b = std::get_if<SmemByte>(&h.at); b && b->cta == cta)
                        held[static_cast<std::size_t>(i)] = heldAcross[static_cast<std::size_t>(j)] = 1;
                }
            }
        for (int i = 0; i < lines; ++i)
            if (held[static_cast<std::size_t>(i)]) {
                if (!part.runs.empty() && part.runs.back().second == i - 1)
                    part.runs.back().second = i;
                else
                    part.runs.push_back({i, i});
            }
        if (part.runs.empty())
            continue;
        part.first = part.runs.front().first;
        part.last = part.runs.back().second;
        int count = 0;
        for (const auto& [a, b] : part.runs)
            count += b - a + 1;
        const int acrossCount = static_cast<int>(std::count(heldAcross.begin(), heldAcross.end(), 1));
        part.rows = part.byColumns ? acrossCount : count;
        part.cols = part.byColumns ? count : acrossCount;
        if (!d)
            if (const std::optional<smem::SharedOperand> op = tile::ctaPart(in, operand)) {
                part.bytes = op->layout.footprintBytes();
                part.layout = std::string(smem::toString(op->layout.major())) + "-major, " +
                              std::string(smem::toString(op->layout.swizzle())) + " swizzle";
            }
        answer.parts.push_back(part);
    }
    return answer;
}

ordered_json fieldJson(const MetadataUse& m) {
    ordered_json o;
    o["selector"] = m.selector;
    o["thread"] = m.field.thread;
    o["bits"] = {m.field.bitHi, m.field.bitLo};
    o["row"] = m.field.row;
    o["cols"] = {m.field.colFirst, m.field.colLast};
    return o;
}

std::string dump(const ordered_json& doc) {
    return doc.dump(1) + "\n";
}

} // namespace

std::optional<WhereAnswer> where(const Instruction& in, Operand operand, int row, int col,
                                 std::string& error) {
    WhereAnswer answer{operand, row, col, {}, {}, {}, {}};
    if (tile::overCtas(in))
        return whereOverCtas(in, operand, row, col, error);
    if (const Placement* tensor = tensorMemoryOf(in))
        return wherePair(in, *tensor, operand, row, col, error);
    if (operand == Operand::Metadata) {
        error = "metadata is not a matrix of elements; `feeds " + in.spec +
                " ROW COL` names the metadata fields of a row; valid operands: " + operandNames(in);
        return std::nullopt;
    }
    const FragmentLayout* op = in.operand(operand);
    if (!op) {
        if (operand == Operand::B)
            if (const std::optional<smem::SharedOperand> b = sharedB(in)) {
                if (!inRange(row, b->rows, "row", "B (" + std::to_string(b->rows) + " rows)", error) ||
                    !inRange(col, b->cols, "column", "B (" + std::to_string(b->cols) + " columns)", error))
                    return std::nullopt;
                answer.shared = sharedHolding(*b, row, col);
                return answer;
            }
        error = "no operand " + std::string(toString(operand)) + " in " + in.spec +
                "; valid operands: " + operandNames(in);
        return std::nullopt;
    }
    const std::string name =
        std::string(op->name()) + " (" + std::to_string(op->rows()) + "x" + std::to_string(op->cols()) + ")";
    if (!inRange(row, op->rows(), "row", name, error) || !inRange(col, op->cols(), "column", name, error))
        return std::nullopt;
    std::set<std::pair<int, int>> seen;
    for (int m = 0; m < op->matrices(); ++m)
        appendOwners(*op, row, col, m, answer.holders, seen);
    return answer;
}

std::optional<WhatAnswer> what(const Instruction& in, int thread, std::optional<int> reg,
                               std::string& error) {
    const std::string who = in.scope != Scope::Warp ? "thread" : "lane";
    if (tile::overCtas(in)) {
        error =
            tile::nameOf(in) + " is held by " + std::to_string(in.tile->threads) +
            " CTAs of a cluster, not by threads' registers: `what SPEC --cta C --atom-layout ...` lists what "
            "CTA C holds (C in 0.." +
            std::to_string(in.tile->threads - 1) + ")";
        return std::nullopt;
    }
    if (inTensorMemory(in, error, "no " + who + " holds an element of it"))
        return std::nullopt;
    if (!inRange(thread, in.threads, who.c_str(), in.spec + " (" + std::to_string(in.threads) + " threads)",
                 error))
        return std::nullopt;
    int registers = 0;
    for (const FragmentLayout& op : in.operands)
        registers = std::max(registers, op.registers());
    if (reg && !inRange(*reg, registers, "register", "every operand of " + in.spec, error))
        return std::nullopt;
    WhatAnswer answer{thread, reg, {}};
    for (const FragmentLayout& op : in.operands)
        for (int i = 0; i < op.elementsPerThread(); ++i) {
            const Element& e = op.element(thread, i);
            if (!reg || e.reg == *reg)
                answer.held.push_back(holding(op, e));
        }
    return answer;
}

std::optional<CtaAnswer> whatCta(const Instruction& in, int cta, std::string& error) {
    if (tile::overCtas(in))
        return whatCtaOverCtas(in, cta, error);
    const Placement* tensor = tensorMemoryOf(in);
    if (!tensor || !in.family || !in.family->sharedOperand) {
        error = "--cta names a CTA of a tcgen05.mma's group; " + in.spec +
                " runs in one CTA's registers (give --lane or --thread)";
        return std::nullopt;
    }
    CtaAnswer answer;
    answer.cta = cta;
    answer.ctas = tensor->tensor()->mma.ctaGroup;
    if (!inRange(cta, answer.ctas, "CTA",
                 in.spec + " (cta_group::" + std::to_string(answer.ctas) + ": " +
                     std::to_string(answer.ctas) + (answer.ctas == 1 ? " CTA)" : " CTAs)"),
                 error))
        return std::nullopt;
    for (const Operand operand : {Operand::A, Operand::B, Operand::D}) {
        CtaPart part;
        part.operand = operand;
        if (const Placement* tm = in.placement(Space::TensorMemory, operand)) {
            part.rows = tm->rows() / answer.ctas;
            part.cols = tm->cols();
            part.first = cta * part.rows;
            part.last = part.first + part.rows - 1;
            part.laneLo = part.columnLo = 1 << 30;
            part.laneHi = part.columnHi = -1;
            for (int r = part.first; r <= part.last; ++r)
                for (int c = 0; c < tm->cols(); ++c)
                    for (const lanemap::Holding& h : tm->at(r, c)) {
                        const TmemCell& cell = std::get<TmemCell>(h.at);
                        part.laneLo = std::min(part.laneLo, cell.lane);
                        part.laneHi = std::max(part.laneHi, cell.lane);
                        part.columnLo = std::min(part.columnLo, cell.column);
                        part.columnHi = std::max(part.columnHi, cell.column);
                    }
            answer.parts.push_back(part);
            continue;
        }
        if (operand == Operand::D)
            continue;
        Placement shared;
        if (!in.family->sharedOperand(in, operand, in.params.smem.value_or(smem::Choice{}), 0, 0, shared,
                                      error) ||
            !shared.shared())
            return std::nullopt;
        const smem::SharedOperand& op = *shared.shared();
        part.space = Space::SharedMemory;
        part.byColumns = operand == Operand::B;
        part.rows = op.rows;
        part.cols = op.cols;
        const int count = part.byColumns ? op.cols : op.rows;
        part.first = cta * count;
        part.last = part.first + count - 1;
        part.bytes = op.layout.footprintBytes();
        part.layout = std::string(smem::toString(op.layout.major())) + "-major, " +
                      std::string(smem::toString(op.layout.swizzle())) + " swizzle";
        answer.parts.push_back(part);
    }
    return answer;
}

std::optional<FeedsAnswer> feeds(const Instruction& in, int row, int col, std::optional<int> selector,
                                 std::string& error) {
    if (inTensorMemory(in, error,
                       "no register feeds D" + cellName(row, col) +
                           " (A and B come from shared memory or Tensor Memory)"))
        return std::nullopt;
    const FragmentLayout* d = in.operand(Operand::D);
    if (!d) {
        error = in.spec + " has no D operand; valid operands: " + operandNames(in);
        return std::nullopt;
    }
    const std::string name = "D (" + std::to_string(d->rows()) + "x" + std::to_string(d->cols()) + ")";
    if (!inRange(row, d->rows(), "row", name, error) || !inRange(col, d->cols(), "column", name, error))
        return std::nullopt;
    if (selector) {
        if (!in.metadata) {
            error = "--selector applies to sparse instructions only; " + in.spec + " is dense";
            return std::nullopt;
        }
        std::string valid;
        bool found = false;
        for (const MetadataSelector& s : in.metadata->selectors) {
            found = found || s.value == *selector;
            valid += (valid.empty() ? "" : ", ") + std::to_string(s.value);
        }
        if (!found) {
            error = "sparsity selector " + std::to_string(*selector) + " is not valid for " + in.spec +
                    "; valid selectors: " + valid;
            return std::nullopt;
        }
    }
    FeedsAnswer answer;
    answer.row = row;
    answer.col = col;
    std::set<std::pair<int, int>> seenD, seen;
    for (int m = 0; m < d->matrices(); ++m) {
        const std::size_t before = answer.d.size();
        appendOwners(*d, row, col, m, answer.d, seenD);
        if (answer.d.size() == before)
            continue;
        // Product m reads A's row, B's column and C's cell of the same product.
        for (const FragmentLayout& op : in.operands) {
            const int pm = std::min(m, op.matrices() - 1);
            switch (op.operand()) {
            case Operand::A:
                for (int k = 0; k < op.cols(); ++k)
                    appendOwners(op, row, k, pm, answer.inputs, seen);
                break;
            case Operand::B:
                for (int k = 0; k < op.rows(); ++k)
                    appendOwners(op, k, col, pm, answer.inputs, seen);
                break;
            case Operand::C:
                appendOwners(op, row, col, pm, answer.inputs, seen);
                break;
            default:
                break;
            }
        }
    }
    if (!in.operand(Operand::B))
        if (const std::optional<smem::SharedOperand> b = sharedB(in))
            for (int k = 0; k < b->rows; ++k)
                answer.shared.push_back(sharedHolding(*b, k, col));
    if (in.metadata)
        for (const MetadataSelector& s : in.metadata->selectors)
            if (!selector || s.value == *selector)
                for (const MetadataField& f : s.fields)
                    if (f.row == row)
                        answer.metadata.push_back(MetadataUse{s.value, f});
    return answer;
}

std::string_view toString(Relation relation) {
    switch (relation) {
    case Relation::Identical:
        return "identical";
    case Relation::RegisterPermutation:
        return "register-permutation";
    case Relation::LanePermutation:
        return "lane-permutation";
    case Relation::Shuffle:
        return "shuffle";
    case Relation::Incomparable:
        return "incomparable";
    }
    return "incomparable";
}

namespace {

std::string shapeOf(const FragmentLayout& op) {
    std::string s = std::to_string(op.rows()) + "x" + std::to_string(op.cols());
    if (op.matrices() > 1)
        s += " x" + std::to_string(op.matrices()) + " products";
    return s + ", " + std::to_string(op.threads()) + " threads, " + std::to_string(op.elementsPerThread()) +
           " elements per thread";
}

bool oneOwnerPerCell(const FragmentLayout& op) {
    for (int m = 0; m < op.matrices(); ++m)
        for (int r = 0; r < op.rows(); ++r)
            for (int c = 0; c < op.cols(); ++c)
                if (op.owners(r, c, m).size() != 1)
                    return false;
    return true;
}

OperandDiff compare(const FragmentLayout& a, const FragmentLayout& b) {
    OperandDiff d;
    d.operand = a.operand();
    if (a.rows() != b.rows() || a.cols() != b.cols() || a.matrices() != b.matrices() ||
        a.threads() != b.threads() || a.elementsPerThread() != b.elementsPerThread()) {
        d.relation = Relation::Incomparable;
        d.reason = "different fragments: " + shapeOf(a) + " against " + shapeOf(b);
        return d;
    }
    if (!oneOwnerPerCell(a) || !oneOwnerPerCell(b)) {
        d.relation = Relation::Incomparable;
        d.reason = "not one holder per cell (sparse chunks): compare with `where` per cell";
        return d;
    }
    const int threads = a.threads(), elements = a.elementsPerThread();
    d.indexMap.assign(static_cast<std::size_t>(threads),
                      std::vector<int>(static_cast<std::size_t>(elements), -1));
    d.sourceLane.assign(static_cast<std::size_t>(threads), -1);
    bool sameLanes = true, laneFunction = true;
    for (int m = 0; m < a.matrices(); ++m)
        for (int r = 0; r < a.rows(); ++r)
            for (int c = 0; c < a.cols(); ++c) {
                const Element& e1 = a.owners(r, c, m)[0];
                const Element& e2 = b.owners(r, c, m)[0];
                ++d.cells;
                if (e1.thread != e2.thread || e1.index != e2.index) {
                    ++d.differing;
                    if (d.examples.size() < 16)
                        d.examples.push_back({m, r, c, e1.thread, e1.index, e2.thread, e2.index});
                }
                sameLanes = sameLanes && e1.thread == e2.thread;
                if (e1.thread == e2.thread)
                    d.indexMap[e1.thread][e1.index] = e2.index;
                int& source = d.sourceLane[e2.thread];
                laneFunction = laneFunction && (source < 0 || source == e1.thread);
                source = e1.thread;
            }
    if (!d.differing) {
        d.relation = Relation::Identical;
        d.indexMap.clear();
        d.sourceLane.clear();
    } else if (sameLanes) {
        d.relation = Relation::RegisterPermutation;
        d.sourceLane.clear();
    } else if (laneFunction) {
        d.relation = Relation::LanePermutation;
        d.indexMap.clear();
        const int mask = d.sourceLane[0];
        bool isXor = true;
        for (int t = 0; t < threads; ++t)
            isXor = isXor && d.sourceLane[static_cast<std::size_t>(t)] == (t ^ mask);
        if (isXor)
            d.xorMask = mask;
    } else {
        d.relation = Relation::Shuffle;
        d.indexMap.clear();
        d.sourceLane.clear();
    }
    return d;
}

} // namespace

std::optional<DiffAnswer> diff(const Instruction& first, const Instruction& second,
                               std::optional<Operand> operand, std::string& error) {
    DiffAnswer answer{first.spec, second.spec, {}};
    for (const FragmentLayout& a : first.operands) {
        if (operand && a.operand() != *operand)
            continue;
        if (const FragmentLayout* b = second.operand(a.operand()))
            answer.operands.push_back(compare(a, *b));
    }
    if (answer.operands.empty()) {
        std::string common;
        for (const FragmentLayout& a : first.operands)
            if (second.operand(a.operand()))
                (common += common.empty() ? "" : ", ") += a.name();
        error = (operand ? "operand " + std::string(toString(*operand)) +
                               " is not held in registers by both " + first.spec + " and " + second.spec
                         : first.spec + " and " + second.spec + " share no register operand") +
                "; valid operands: " + (common.empty() ? "none" : common);
        return std::nullopt;
    }
    return answer;
}

namespace {
// "byte 438 (0x1b6)": decimal for arithmetic, hex as the figures and the shared-memory pane label it.
std::string byteText(std::uint32_t address) {
    std::ostringstream s;
    s << "byte " << address << " (0x" << std::hex << address << ')';
    return s.str();
}
} // namespace

namespace {
std::string pairLine(const PairHolding& p) {
    std::ostringstream s;
    const bool a = p.operand != Operand::B;
    s << "CTA " << p.cta;
    if (p.tile)
        s << " of " << p.ctas << " (atom (" << p.atom[0] << "," << p.atom[1] << "," << p.atom[2]
          << "), its CTA " << p.atomCta << "; value " << p.value << ")";
    else if (p.ctas > 1)
        s << " of the pair (cta_group::" << p.ctas << ": CTA " << p.cta << " holds " << toString(p.operand)
          << "'s " << (a ? "rows " : "columns ") << p.first << ".." << p.first + p.count - 1 << ")";
    else
        s << " (cta_group::1: one CTA holds all of " << toString(p.operand) << ")";
    s << ", its " << toString(p.operand) << cellName(p.localRow, p.localCol) << ": ";
    if (p.space == Space::TensorMemory)
        s << "Tensor Memory lane " << p.lane << ", column " << p.column << ", bits [" << p.bitLo + p.bits - 1
          << ":" << p.bitLo << "]";
    else
        s << "shared memory " << byteText(p.address) << (p.bit ? " bit " + std::to_string(p.bit) : "") << " ("
          << p.layout << ") from a 1024-byte aligned base";
    return s.str();
}
// A view's name: a tcgen05.mma's with its M and N (the instance's N, not the catalog entry's).
std::string viewName(const Instruction& in) {
    if (in.tile)
        return tile::nameOf(in);
    if (const Placement* tensor = tensorMemoryOf(in))
        return tmem::specOf(tensor->tensor()->mma, true);
    return tile::nameOf(in);
}
} // namespace

std::string toText(const Instruction& in, const WhereAnswer& a) {
    std::ostringstream s;
    s << viewName(in) << "  " << toString(a.operand) << cellName(a.row, a.col) << '\n';
    if (a.keptOf)
        s << "  stored column " << a.col << " of the compressed A: a kept element of K " << a.keptOf->first
          << ".." << a.keptOf->second << " (the metadata says which)\n";
    for (const PairHolding& p : a.pair)
        s << "  " << pairLine(p) << '\n';
    if (a.shared)
        s << "  shared memory (K-major, 128B swizzle): " << byteText(a.shared->address)
          << (a.shared->bit ? " bit " + std::to_string(a.shared->bit) : "")
          << " from a 1024-byte aligned base\n";
    for (const Holding& h : a.holders)
        s << "  " << holderLine(in, h) << '\n';
    if (a.holders.size() > 1)
        s << "  (" << a.holders.size() << " holders)\n";
    return s.str();
}

std::string toText(const Instruction& in, const WhatAnswer& a) {
    std::ostringstream s;
    s << tile::nameOf(in) << "  " << (in.scope != Scope::Warp ? "thread " : "lane ") << a.thread;
    if (a.reg)
        s << "  register " << *a.reg;
    s << '\n';
    for (const Holding& h : a.held)
        s << "  " << holderLine(in, h) << '\n';
    return s.str();
}

std::string toText(const Instruction& in, const CtaAnswer& a) {
    std::ostringstream s;
    s << viewName(in) << "  CTA " << a.cta;
    if (in.tile)
        s << " of " << a.ctas << " (a cluster)";
    else if (a.ctas > 1)
        s << " of the pair (cta_group::" << a.ctas << ")";
    s << '\n';
    for (const CtaPart& p : a.parts) {
        s << "  " << toString(p.operand) << (p.byColumns ? " columns " : " rows ");
        if (p.runs.empty())
            s << p.first << ".." << p.last;
        for (std::size_t i = 0; i < p.runs.size(); ++i)
            s << (i ? ", " : "") << p.runs[i].first << ".." << p.runs[i].second;
        s << " (its " << p.rows << "x" << p.cols << "): ";
        if (p.space == Space::TensorMemory)
            s << "Tensor Memory lanes " << p.laneLo << ".." << p.laneHi << ", columns " << p.columnLo << ".."
              << p.columnHi;
        else
            s << "shared memory, " << p.bytes << " bytes from a 1024-byte aligned base (" << p.layout << ")";
        s << '\n';
    }
    return s.str();
}

std::string toText(const Instruction& in, const FeedsAnswer& a) {
    std::ostringstream s;
    s << tile::nameOf(in) << "  D" << cellName(a.row, a.col) << '\n';
    for (const Holding& h : a.d)
        s << "  D  " << holderLine(in, h) << '\n';
    for (const Holding& h : a.inputs)
        s << "  " << toString(h.operand) << "  " << holderLine(in, h) << '\n';
    for (const SharedHolding& b : a.shared)
        s << "  B  shared memory B" << cellName(b.row, b.col) << ' ' << byteText(b.address)
          << " (K-major, 128B swizzle)\n";
    for (const MetadataUse& m : a.metadata)
        s << "  metadata  selector " << m.selector << "  thread " << m.field.thread << "  bits ["
          << m.field.bitHi << ":" << m.field.bitLo << "]  row " << m.field.row << " columns "
          << m.field.colFirst << ".." << m.field.colLast << '\n';
    return s.str();
}

std::string toText(const DiffAnswer& a) {
    std::ostringstream s;
    s << a.spec1 << " vs " << a.spec2 << '\n';
    for (const OperandDiff& d : a.operands) {
        s << toString(d.operand) << ": " << toString(d.relation);
        if (d.relation == Relation::Incomparable) {
            s << " (" << d.reason << ")\n";
            continue;
        }
        s << ", " << d.differing << " of " << d.cells << " cells held by a different lane or element\n";
        for (const OperandDiff::Cell& c : d.examples)
            s << "  " << toString(d.operand) << cellName(c.row, c.col)
              << (c.matrix ? " product " + std::to_string(c.matrix) : "") << ": T" << c.thread1 << ":"
              << c.index1 << " -> T" << c.thread2 << ":" << c.index2 << '\n';
        if (d.differing > static_cast<int>(d.examples.size()))
            s << "  ... " << d.differing - static_cast<int>(d.examples.size()) << " more\n";
        if (d.relation == Relation::RegisterPermutation) {
            s << "  same lanes; inside every lane element i of the first is element map[i] of the second:\n";
            std::set<std::vector<int>> distinct(d.indexMap.begin(), d.indexMap.end());
            if (distinct.size() == 1) {
                s << "  map (every lane) =";
                for (const int i : d.indexMap[0])
                    s << ' ' << i;
                s << '\n';
            } else {
                for (std::size_t t = 0; t < d.indexMap.size(); ++t) {
                    s << "  lane " << t << " map =";
                    for (const int i : d.indexMap[t])
                        s << ' ' << i;
                    s << '\n';
                }
            }
        } else if (d.relation == Relation::LanePermutation) {
            if (d.xorMask >= 0)
                s << "  one shuffle: lane L of the second takes its data from lane L ^ " << d.xorMask
                  << " (__shfl_xor_sync(mask, v, " << d.xorMask << "))\n";
            else {
                s << "  one shuffle pattern: source lane per lane of the second =";
                for (const int l : d.sourceLane)
                    s << ' ' << l;
                s << '\n';
            }
        } else if (d.relation == Relation::Shuffle) {
            s << "  lanes differ per element: no single permutation; each register needs its own shuffle\n";
        }
    }
    return s.str();
}

std::string toJson(const Instruction& in, const WhereAnswer& a) {
    ordered_json doc;
    doc["spec"] = a.pair.empty() ? in.spec : viewName(in);
    if (in.tile)
        doc["tile"] = tile::tileJson(*in.tile);
    doc["query"] = "where";
    doc["operand"] = std::string(toString(a.operand));
    doc["row"] = a.row;
    doc["col"] = a.col;
    doc["holders"] = ordered_json::array();
    for (const Holding& h : a.holders)
        doc["holders"].push_back(holdingJson(in, h));
    if (a.shared)
        doc["shared_memory"] = sharedJson(*a.shared);
    if (a.keptOf)
        doc["kept_of"] = {a.keptOf->first, a.keptOf->second};
    for (const PairHolding& p : a.pair) {
        ordered_json h;
        h["operand"] = std::string(toString(p.operand));
        h["space"] = p.space == Space::TensorMemory ? "tensor_memory" : "shared_memory";
        h["cta"] = p.cta;
        h["ctas"] = p.ctas;
        if (p.tile) {
            h["atom"] = p.atom;
            h["atom_cta"] = p.atomCta;
            h["value"] = p.value;
        } else
            h[p.operand == Operand::B ? "cta_cols" : "cta_rows"] = {p.first, p.first + p.count - 1};
        h["cta_row"] = p.localRow;
        h["cta_col"] = p.localCol;
        if (p.space == Space::TensorMemory) {
            h["lane"] = p.lane;
            h["column"] = p.column;
            h["bits"] = {p.bitLo + p.bits - 1, p.bitLo};
        } else {
            h["byte"] = p.address;
            if (p.bit)
                h["bit"] = p.bit;
            h["layout"] = p.layout;
        }
        doc["holders"].push_back(std::move(h));
    }
    return dump(doc);
}

std::string toJson(const Instruction& in, const CtaAnswer& a) {
    ordered_json doc;
    doc["spec"] = viewName(in);
    if (in.tile)
        doc["tile"] = tile::tileJson(*in.tile);
    doc["query"] = "what";
    doc["cta"] = a.cta;
    doc["ctas"] = a.ctas;
    doc["holds"] = ordered_json::array();
    for (const CtaPart& p : a.parts) {
        ordered_json h;
        h["operand"] = std::string(toString(p.operand));
        h["space"] = p.space == Space::TensorMemory ? "tensor_memory" : "shared_memory";
        h[p.byColumns ? "cols" : "rows"] = {p.first, p.last};
        if (!p.runs.empty())
            h["runs"] = p.runs;
        h["part"] = {p.rows, p.cols};
        if (p.space == Space::TensorMemory) {
            h["lanes"] = {p.laneLo, p.laneHi};
            h["columns"] = {p.columnLo, p.columnHi};
        } else {
            h["bytes"] = p.bytes;
            h["layout"] = p.layout;
        }
        doc["holds"].push_back(std::move(h));
    }
    return dump(doc);
}

std::string toJson(const Instruction& in, const WhatAnswer& a) {
    ordered_json doc;
    doc["spec"] = in.spec;
    if (in.tile)
        doc["tile"] = tile::tileJson(*in.tile);
    doc["query"] = "what";
    doc["thread"] = a.thread;
    if (a.reg)
        doc["register"] = *a.reg;
    doc["elements"] = ordered_json::array();
    for (const Holding& h : a.held)
        doc["elements"].push_back(holdingJson(in, h));
    return dump(doc);
}

std::string toJson(const Instruction& in, const FeedsAnswer& a) {
    ordered_json doc;
    doc["spec"] = in.spec;
    if (in.tile)
        doc["tile"] = tile::tileJson(*in.tile);
    doc["query"] = "feeds";
    doc["row"] = a.row;
    doc["col"] = a.col;
    doc["d"] = ordered_json::array();
    for (const Holding& h : a.d)
        doc["d"].push_back(holdingJson(in, h));
    doc["inputs"] = ordered_json::array();
    for (const Holding& h : a.inputs)
        doc["inputs"].push_back(holdingJson(in, h));
    if (!a.shared.empty()) {
        doc["shared_memory"] = ordered_json::array();
        for (const SharedHolding& b : a.shared)
            doc["shared_memory"].push_back(sharedJson(b));
    }
    if (!a.metadata.empty()) {
        doc["metadata"] = ordered_json::array();
        for (const MetadataUse& m : a.metadata)
            doc["metadata"].push_back(fieldJson(m));
    }
    return dump(doc);
}

std::string toJson(const DiffAnswer& a) {
    ordered_json doc;
    doc["query"] = "diff";
    doc["spec1"] = a.spec1;
    doc["spec2"] = a.spec2;
    doc["operands"] = ordered_json::array();
    for (const OperandDiff& d : a.operands) {
        ordered_json o;
        o["operand"] = std::string(toString(d.operand));
        o["relation"] = std::string(toString(d.relation));
        if (d.relation == Relation::Incomparable) {
            o["reason"] = d.reason;
            doc["operands"].push_back(o);
            continue;
        }
        o["cells"] = d.cells;
        o["differing"] = d.differing;
        o["examples"] = ordered_json::array();
        for (const OperandDiff::Cell& c : d.examples)
            o["examples"].push_back({{"matrix", c.matrix},
                                     {"row", c.row},
                                     {"col", c.col},
                                     {"first", {c.thread1, c.index1}},
                                     {"second", {c.thread2, c.index2}}});
        if (!d.indexMap.empty())
            o["index_map"] = d.indexMap;
        if (!d.sourceLane.empty())
            o["source_lane"] = d.sourceLane;
        if (d.xorMask >= 0)
            o["xor_mask"] = d.xorMask;
        doc["operands"].push_back(o);
    }
    return dump(doc);
}

} // namespace lanemap::query
