// The Cell dock's fields for cells outside register fragments: Tensor Memory (tcgen05.mma's panels) and
// shared memory (wgmma operand tiles, ldmatrix / stmatrix rows). Read from the Diagram's cell numbers
// (lanemap/diagram.hpp, diagram_tmem.hpp say what each carries) and the core tables they come from (tmem,
// smem, banks), never from a rendered string.
#include "cell_info.hpp"

#include "gui_text.hpp"

#include "lanemap/banks.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/diagram_tmem.hpp"
#include "lanemap/matrix_move.hpp"
#include "lanemap/model.hpp"
#include "lanemap/placement.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/tmem.hpp"

#include <algorithm>
#include <set>

namespace lanemap::gui {

namespace {

QString hex(std::uint32_t v, int width = 0) {
    return QStringLiteral("0x%1").arg(v, width, 16, QLatin1Char('0'));
}

// "4..7, 20..23": sorted values as runs.
QString runs(const std::set<int>& values) {
    QStringList out;
    for (auto it = values.begin(); it != values.end();) {
        const int first = *it;
        int last = first;
        while (++it != values.end() && *it == last + 1)
            last = *it;
        out << (first == last ? QString::number(first) : QStringLiteral("%1..%2").arg(first).arg(last));
    }
    return out.join(QStringLiteral(", "));
}

// "7..7" reads "7".
QString range(int first, int last) {
    return first == last ? QString::number(first) : QStringLiteral("%1..%2").arg(first).arg(last);
}

const DiagramCell* cellAt(const Diagram& d, int cell) {
    if (cell < 0 || static_cast<std::size_t>(cell) >= d.cells.size())
        return nullptr;
    return &d.cells[static_cast<std::size_t>(cell)];
}

int partnerOf(const Diagram& d, int cell) {
    return static_cast<std::size_t>(cell) < d.partner.size() ? d.partner[static_cast<std::size_t>(cell)] : -1;
}

// A cell described by its picture's words: its panel's name and title and its tooltip.
CellInfo pictureInfo(const Diagram& d, const DiagramCell& c) {
    CellInfo info;
    info.valid = true;
    const DiagramPanel& p = d.panels[c.panel];
    info.operand = qs(p.name);
    info.summary = qs(d.tooltip(c));
    info.panelTitle = qs(p.title);
    return info;
}

CellInfo memoryInfo(const Instruction& in, const Diagram& d, const DiagramCell& c) {
    CellInfo info = pictureInfo(d, c);
    fillInstructionFacts(info, in);
    return info;
}

// Which part of a 32-bit word a narrower element is: "low half" / "high half" (16 bits), "byte 2",
// "nibble 5", else "part 3 of 16".
QString partOfWord(int bitLo, int bits) {
    if (bits == 16)
        return bitLo == 0 ? QStringLiteral("low half") : QStringLiteral("high half");
    if (bits == 8)
        return QStringLiteral("byte %1").arg(bitLo / 8);
    if (bits == 4)
        return QStringLiteral("nibble %1").arg(bitLo / 4);
    return QStringLiteral("part %1 of %2").arg(bitLo / std::max(bits, 1)).arg(32 / std::max(bits, 1));
}

} // namespace

CellInfo describePlacementCell(const Instruction& in, const Diagram& d, int cell) {
    const DiagramCell* c = cellAt(d, cell);
    if (!c)
        return {};
    const DiagramPanel& p = d.panels[c->panel];
    if (p.kind != PanelKind::SharedMemory && p.kind != PanelKind::SharedMemoryMap)
        return {};
    CellInfo info = memoryInfo(in, d, *c);
    if (p.kind != PanelKind::SharedMemory)
        return info;
    info.row = c->row;
    info.col = c->col;
    info.rows = p.rows;
    info.cols = p.cols;
    // The same grid in global memory: which element the cell holds, or a hole (fill).
    for (const Placement& g : in.placements) {
        if (g.space() != Space::Global || g.rows() != p.rows || g.cols() != p.cols)
            continue;
        const std::vector<Holding> h = g.at(c->row, c->col);
        if (h.empty()) {
            info.summary += QStringLiteral("; fill: outside the tensor (zero, or NaN with oob=nan)");
        } else {
            const GlobalElement& e = std::get<GlobalElement>(h.front().at);
            QStringList coord;
            for (int i = e.rank - 1; i >= 0; --i)
                coord << QString::number(e.coord[static_cast<std::size_t>(i)]);
            info.summary += QStringLiteral("; global element (%1), byte %2 of the tensor")
                                .arg(coord.join(QLatin1Char(',')))
                                .arg(e.offset);
        }
        break;
    }
    return info;
}

CellInfo describeTensorMemoryCell(const Instruction& in, const Diagram& d, int cell) {
    const DiagramCell* c = cellAt(d, cell);
    const TensorMemorySource* source = nullptr;
    for (const Placement& placement : in.placements)
        source = source ? source : placement.tensor();
    // A tile over the CTAs of a cluster places D (and a sparse atom's metadata) cell by cell, with no one
    // instruction's source: the cell's own place, no data-path layout line.
    if (!c || (!source && !in.tile))
        return {};
    const DiagramPanel& p = d.panels[c->panel];
    if (p.kind != PanelKind::TensorMemory && p.kind != PanelKind::TensorMemoryRegisters)
        return {};
    CellInfo info = memoryInfo(in, d, *c);
    info.warpgroup = true;
    const std::optional<tmem::Access>& composed = in.params.access;
    TensorMemoryCell t;
    t.operand = qs(p.name);
    t.element = qs(d.label(*c));
    const tmem::Address at = tmem::Address::decode(c->address);
    t.cta = c->matrix;
    t.ctas = p.rows / tmem::kLanes;
    t.lane = at.lane;
    t.column = at.column;
    t.address = c->address;
    t.subpartition = at.lane / tmem::kSubpartitionLanes;
    t.bits = p.elementBits;
    t.bitLo = c->groupID;
    // The Tensor Memory cell itself (a register cell's partner): the elements sharing its 32 bits.
    const int partner = partnerOf(d, cell);
    const int tmemCell = p.kind == PanelKind::TensorMemory ? cell : partner;
    if (const DiagramCell* tc = cellAt(d, tmemCell); tc && t.bits < 32) {
        const DiagramPanel& tp = d.panels[tc->panel];
        const auto sharing = tp.cellsAtGrid(tc->row, tc->col);
        if (sharing.size() > 1)
            for (const std::uint32_t i : sharing) {
                const DiagramCell& s = d.cells[i];
                t.cellElements << QStringLiteral("%1 [%2..%3]")
                                      .arg(qs(d.label(s)))
                                      .arg(s.groupID + t.bits - 1)
                                      .arg(s.groupID);
            }
    }
    const bool a = p.operands == Operand::A;
    if (source && (a || p.operands == Operand::D)) {
        const tmem::MmaShape& shape = source->mma; // at the instance's N
        const tmem::LayoutRecord& rec = tmem::layoutOf(shape);
        t.layout = QStringLiteral("data-path layout %1 (%2; M = %3, cta_group::%4), %5")
                       .arg(qs(tmem::toString(rec.layout)), qs(rec.organisation))
                       .arg(shape.m)
                       .arg(shape.ctaGroup)
                       .arg(qs(rec.figure));
    }
    // Composed: the register holding it, from the same table the registers panel is drawn from.
    if (source && partner >= 0 && composed && (a || p.operands == Operand::D)) {
        const tmem::MmaShape& shape = source->mma;
        const tmem::Access& access = *composed;
        const tmem::Holder h = a ? tmem::whoHoldsA(shape, access, c->element, c->bitLo, t.bits)
                                 : tmem::whoHoldsD(shape, access, c->element, c->bitLo);
        const DiagramCell& registerCell =
            p.kind == PanelKind::TensorMemoryRegisters ? *c : d.cells[static_cast<std::size_t>(partner)];
        t.held = true;
        t.load = access.op == tmem::Op::Ld;
        t.access = qs(tmem::specOf(access));
        t.packed = access.packed;
        t.accessIndex = registerCell.col / tmem::registersOf(access);
        t.accessLane = h.address.lane;
        t.accessColumn = h.address.column;
        t.warp = h.warp;
        t.threadLane = h.thread;
        t.thread = h.warp * tmem::kSubpartitionLanes + h.thread;
        t.reg = h.reg;
        t.regBitLo = h.bit;
    }
    info.row = t.lane;
    info.col = t.column;
    info.tensorMemory = t;
    return info;
}

CellInfo describeSharedMemoryCell(const Instruction& in, const smem::SharedOperand& op, const Diagram& d,
                                  int cell) {
    const DiagramCell* c = cellAt(d, cell);
    if (!c)
        return {};
    const DiagramPanel& p = d.panels[c->panel];
    if (p.kind != PanelKind::SharedMemory && p.kind != PanelKind::SharedMemoryMap)
        return {};
    CellInfo info = memoryInfo(in, d, *c);
    info.warpgroup = true;
    const smem::SmemLayout& l = op.layout;
    SharedMemoryCell s;
    smem::Placement pl;
    if (p.kind == PanelKind::SharedMemory) {
        // A cell covers rowElements x colElements elements (one, or the sub-byte elements of one byte).
        const int row0 = c->row * p.rowElements, col0 = c->col * p.colElements;
        const int row1 = std::min(row0 + p.rowElements, op.rows) - 1;
        const int col1 = std::min(col0 + p.colElements, op.cols) - 1;
        s.elements = QStringLiteral("%1(%2 %3, %4 %5)")
                         .arg(qs(p.name))
                         .arg(QChar::fromLatin1(p.rowLetter))
                         .arg(range(row0, row1))
                         .arg(QChar::fromLatin1(p.colLetter))
                         .arg(range(col0, col1));
        const smem::Coord lc = op.toLayout(row0, col0);
        pl = l.placement(lc.mn, lc.k);
        s.bytes = std::max(1, l.elementBits() / 8);
        s.byteBitLo = c->bitLo;
        s.byteBitHi = c->bitHi;
        info.row = row0;
        info.col = col0;
    } else {
        // A chunk of the map: one strided index and a run of contiguous ones (their first element placed).
        s.chunk = true;
        s.bytes = 16;
        s.elements = QStringLiteral("%1: %2 %3, %4 %5")
                         .arg(qs(toString(op.operand)))
                         .arg(QChar::fromLatin1(p.rowLetter))
                         .arg(c->element)
                         .arg(QChar::fromLatin1(p.colLetter))
                         .arg(range(c->bitLo, c->bitHi));
        const bool kMajor = l.major() == smem::Major::K;
        pl = l.placement(kMajor ? c->element : c->bitLo, kMajor ? c->bitLo : c->element);
        pl.linear &= ~15u;
        info.row = c->row;
        info.col = c->col;
    }
    s.address = c->address;
    s.start = l.startAddress();
    s.linear = pl.linear;
    if (l.swizzle() != smem::Swizzle::None) {
        s.swizzle = qs(smem::toString(l.swizzle()));
        s.swizzlePhase = pl.xorValue;
        s.phaseLines = smem::repeatBytes(l.swizzle()) / 128;
    }
    info.sharedMemory = s;
    return info;
}

CellInfo describeBanksCell(const Instruction& move, const banks::Analysis& analysis, const Diagram& d,
                           int cell) {
    const DiagramCell* c = cellAt(d, cell);
    if (!c || !matrixMoveOf(move))
        return {};
    const DiagramPanel& p = d.panels[c->panel];
    if (p.kind != PanelKind::Chunks && p.kind != PanelKind::Addresses)
        return {};
    // The row the cell's lane supplies the address of (every thread supplies at most one).
    const banks::Phase* phase = nullptr;
    const banks::RowAccess* row = nullptr;
    for (const banks::Phase& ph : analysis.phases)
        for (const banks::RowAccess& r : ph.rows)
            if (r.thread == c->thread)
                phase = &ph, row = &r;
    if (!row)
        return {};
    CellInfo info = memoryInfo(move, d, *c);
    SharedMemoryCell s;
    s.chunk = true;
    s.bytes = kRowBytes;
    const bool rowMajor = analysis.placement.major == banks::TileMajor::Row;
    const int along = matrixMoveOf(move)->cols - 1; // the row's elements run along the tile's line
    s.elements = QStringLiteral("matrix %1 row %2: tile %3")
                     .arg(row->matrix)
                     .arg(row->row)
                     .arg(rowMajor ? QStringLiteral("row %1, cols %2..%3")
                                         .arg(row->tileRow)
                                         .arg(row->tileCol)
                                         .arg(row->tileCol + along)
                                   : QStringLiteral("rows %1..%2, col %3")
                                         .arg(row->tileRow)
                                         .arg(row->tileRow + along)
                                         .arg(row->tileCol));
    s.address = row->address;
    s.start = analysis.placement.start;
    s.linear = row->linear;
    if (analysis.placement.cute) {
        const banks::CuteSwizzle& sw = *analysis.placement.cute;
        s.swizzle = QStringLiteral("Swizzle<%1,%2,%3>").arg(sw.b).arg(sw.m).arg(sw.s);
    } else if (analysis.placement.mode != smem::Swizzle::None) {
        s.swizzle = qs(smem::toString(analysis.placement.mode));
        s.phaseLines = smem::repeatBytes(analysis.placement.mode) / 128;
    }
    if (!s.swizzle.isEmpty()) // a swizzle that keeps 16-byte chunks whole XORs the chunk bits [6:4]
        s.swizzlePhase = static_cast<int>(((row->linear ^ row->address) >> 4) & 7u);
    s.load = matrixMoveOf(move)->op == MoveOp::Ldmatrix;
    s.thread = row->thread;
    s.phase = phase->index;
    s.phaseFirst = phase->rows.front().thread;
    s.phaseLast = phase->rows.back().thread;
    s.wavefront = row->wavefront;
    s.wavefronts = phase->degree;
    for (const std::uint32_t i : d.cellsOfThread(c->thread)) // its chunk, framed when in a conflict
        if (d.panels[d.cells[i].panel].kind == PanelKind::Chunks)
            s.conflict = s.conflict || d.cells[i].conflict;
    // Where the row's elements land in the registers (ldmatrix) or come from (stmatrix): the data map.
    if (!move.operands.empty()) {
        const FragmentLayout& op = move.operands.front();
        std::set<int> lanes, regs;
        if (row->row < op.rows() && row->matrix < op.matrices())
            for (int col = 0; col < op.cols(); ++col)
                for (const Element& e : op.owners(row->row, col, row->matrix)) {
                    lanes.insert(e.thread);
                    regs.insert(e.reg);
                }
        if (!lanes.empty()) {
            QStringList r;
            for (const int reg : regs)
                r << QStringLiteral("r%1").arg(reg);
            s.registers = QStringLiteral("lanes %1, %2").arg(runs(lanes), r.join(QStringLiteral(" ")));
        }
    }
    info.row = row->row;
    info.matrix = row->matrix;
    info.sharedMemory = s;
    return info;
}

CellInfo describeTiledCopyCell(const QString& consumer, const Diagram& d, int cell) {
    const DiagramCell* c = cellAt(d, cell);
    if (!c)
        return {};
    const DiagramPanel& p = d.panels[c->panel];
    if (p.kind != PanelKind::CopyTile && p.kind != PanelKind::CopyPhases)
        return {};
    CellInfo info = pictureInfo(d, *c);
    info.spec = consumer;
    return info;
}

std::vector<CellField> CellInfo::fields() const {
    std::vector<CellField> out;
    auto add = [&](const QString& name, const QString& value) { out.emplace_back(name, value); };
    if (tensorMemory) {
        const TensorMemoryCell& t = *tensorMemory;
        add(QStringLiteral("element"), t.element);
        if (!t.cellElements.isEmpty())
            add(QStringLiteral("its cell holds"), t.cellElements.join(QStringLiteral(", ")));
        add(QStringLiteral("CTA"),
            t.ctas > 1 ? QStringLiteral("%1 of the pair (cta_group::2)").arg(t.cta) : QString::number(t.cta));
        add(QStringLiteral("TMEM lane"), QString::number(t.lane));
        add(QStringLiteral("TMEM column"), QString::number(t.column));
        add(QStringLiteral("TMEM address"),
            QStringLiteral("%1 (lane << 16 | column)").arg(hex(t.address, 8)));
        const int first = t.subpartition * tmem::kSubpartitionLanes;
        add(QStringLiteral("subpartition"),
            QStringLiteral("%1 (lanes %2..%3)").arg(t.subpartition).arg(first).arg(first + 31));
        add(QStringLiteral("reached by"),
            QStringLiteral("warp %1 of the warpgroup (warp id % 4 = %1)").arg(t.subpartition));
        if (t.bits < 32)
            add(QStringLiteral("bits"), QStringLiteral("[%1..%2] of the 32-bit cell (%3)")
                                            .arg(t.bitLo + t.bits - 1)
                                            .arg(t.bitLo)
                                            .arg(partOfWord(t.bitLo, t.bits)));
        if (!t.layout.isEmpty())
            add(QStringLiteral("layout"), t.layout);
        if (t.held) {
            add(QStringLiteral("thread"),
                QStringLiteral("%1 (warp %2, lane %3)%4")
                    .arg(t.thread)
                    .arg(t.warp)
                    .arg(t.threadLane)
                    .arg(t.ctas > 1 ? QStringLiteral(" of CTA %1").arg(t.cta) : QString()));
            QString reg =
                QStringLiteral("r%1 [%2..%3]").arg(t.reg).arg(t.regBitLo + t.bits - 1).arg(t.regBitLo);
            if (t.bits < 32)
                reg += QStringLiteral(" (%1%2)").arg(
                    partOfWord(t.regBitLo, t.bits),
                    t.packed ? (t.load ? QStringLiteral(", .pack::16b") : QStringLiteral(", .unpack::16b"))
                             : QString());
            add(QStringLiteral("register"), reg);
            add(t.load ? QStringLiteral("loaded by") : QStringLiteral("stored by"),
                QStringLiteral("%1, access #%2 of each warp").arg(t.access).arg(t.accessIndex));
            add(QStringLiteral("its taddr"),
                QStringLiteral("lane %1, column %2 (%3)")
                    .arg(t.accessLane)
                    .arg(t.accessColumn)
                    .arg(hex(tmem::Address{t.accessLane, t.accessColumn}.encode(), 8)));
        }
    }
    if (sharedMemory) {
        const SharedMemoryCell& s = *sharedMemory;
        add(s.chunk ? QStringLiteral("elements") : QStringLiteral("element"), s.elements);
        QString address = hex(s.address);
        if (s.bytes == 1 && s.byteBitHi - s.byteBitLo < 7)
            address += QStringLiteral(" bits [%1..%2]").arg(s.byteBitHi).arg(s.byteBitLo);
        add(QStringLiteral("address"), QStringLiteral("%1 (offset %2 from the tile's start %3)")
                                           .arg(address, hex(s.address - s.start), hex(s.start)));
        const std::uint32_t chunk = s.address & ~15u;
        const int column = static_cast<int>((s.address >> 4) & 7u);
        add(QStringLiteral("16-byte chunk"), QStringLiteral("%1..%2, chunk %3 of the 128-byte line %4")
                                                 .arg(hex(chunk), hex(chunk + 15))
                                                 .arg(column)
                                                 .arg(hex(s.address & ~127u)));
        const int bankFirst = static_cast<int>((s.address / 4) % 32);
        const int bankLast =
            static_cast<int>(((s.address + static_cast<std::uint32_t>(s.bytes) - 1) / 4) % 32);
        add(QStringLiteral("banks"), s.chunk ? range(bankFirst, bankLast)
                                             : QStringLiteral("%1 (its chunk: %2..%3)")
                                                   .arg(range(bankFirst, bankLast))
                                                   .arg(4 * column)
                                                   .arg(4 * column + 3));
        if (s.swizzle.isEmpty())
            add(QStringLiteral("swizzle"), QStringLiteral("none"));
        else {
            const int before = static_cast<int>((s.linear >> 4) & 7u);
            QString phase = QStringLiteral("phase %1").arg(s.swizzlePhase);
            if (s.phaseLines > 0)
                phase += QStringLiteral(" of %1").arg(s.phaseLines);
            add(QStringLiteral("swizzle"), QStringLiteral("%1, %2: chunk %3 → %4 (xor %5), %6 before it")
                                               .arg(s.swizzle, phase)
                                               .arg(before)
                                               .arg(column)
                                               .arg(s.swizzlePhase)
                                               .arg(hex(s.linear)));
        }
        if (s.thread < 0)
            add(QStringLiteral("read by"),
                QStringLiteral(
                    "the warpgroup's wgmma, through the matrix descriptor (no lane addresses it)"));
        else {
            add(QStringLiteral("row address"),
                QStringLiteral("lane %1 (phase %2: lanes %3..%4, wavefront %5 of %6%7)")
                    .arg(s.thread)
                    .arg(s.phase)
                    .arg(s.phaseFirst)
                    .arg(s.phaseLast)
                    .arg(s.wavefront + 1)
                    .arg(s.wavefronts)
                    .arg(s.conflict ? QStringLiteral(", bank conflict") : QString()));
            if (!s.registers.isEmpty())
                add(s.load ? QStringLiteral("loaded into") : QStringLiteral("stored from"), s.registers);
        }
    }
    return out;
}

} // namespace lanemap::gui
