#include "pasted_layout.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/smem.hpp"

#include <algorithm>

namespace lanemap::gui {

namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

void setError(PastedLayout& p, const layout_in::ReadError& e, const std::string& text) {
    p.error = qs(e.describe());
    p.errorLine = e.line;
    p.errorColumn = e.column;
    p.errorOffset =
        e.offset == std::string_view::npos ? -1 : static_cast<int>(std::min(e.offset, text.size()));
}

} // namespace

PastedLayout readPasted(const QString& text, const QString& shape) {
    PastedLayout p;
    const std::string t = text.toStdString();
    if (text.trimmed().isEmpty()) {
        p.error = QStringLiteral("Paste a layout: CuTe ((4,8),(2,2)):((32,1),(16,8)) or Layout<...>, "
                                 "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1), Triton #ttg.linear, "
                                 "#ttg.blocked, #ttg.nvidia_mma or #ttg.dot_op");
        return p;
    }
    // The shape field into `extent` (left unset when empty); false after naming what is wrong in p.error.
    const auto readShape = [&](std::optional<layout_in::Extent>& extent) {
        if (shape.trimmed().isEmpty())
            return true;
        std::string error;
        extent = layout_in::parseExtent(shape.trimmed().toStdString(), error);
        if (!extent)
            p.error = qs(error);
        return extent.has_value();
    };
    if (layout_in::isSharedLayout(t)) {
        const bool cute = layout_in::isSwizzled(t);
        if (cute && !shape.trimmed().isEmpty()) {
            p.error = QStringLiteral("A swizzled layout's shape is its own modes: leave the shape empty");
            return p;
        }
        layout_in::SharedReadOptions options; // a Triton encoding: over the shape given (or its memdesc's)
        if (!readShape(options.extent))
            return p;
        std::variant<layout_in::SharedLayout, layout_in::ReadError> r = layout_in::readShared(t, options);
        if (const auto* e = std::get_if<layout_in::ReadError>(&r)) {
            setError(p, *e, t);
            return p;
        }
        p.sharedLayout = std::get<layout_in::SharedLayout>(std::move(r));
        p.shared = true;
        p.drawn = std::make_shared<const Instruction>(layout_in::instructionOf(*p.sharedLayout));
        p.summary = QStringLiteral("%1, %2 x %3 (%4) of %5-bit elements: %6")
                        .arg(qs(layout_in::toString(p.sharedLayout->notation)))
                        .arg(p.sharedLayout->rows)
                        .arg(p.sharedLayout->cols)
                        .arg(cute ? QStringLiteral("MN x K") : QStringLiteral("dim0 x dim1"))
                        .arg(p.sharedLayout->elementBits)
                        .arg(qs(p.sharedLayout->canonical));
        p.ok = true;
        return p;
    }
    layout_in::ReadOptions options;
    if (!readShape(options.extent))
        return p;
    std::variant<layout_in::Layout, layout_in::ReadError> r = layout_in::read(t, options);
    if (const auto* e = std::get_if<layout_in::ReadError>(&r)) {
        setError(p, *e, t);
        return p;
    }
    p.layout = std::get<layout_in::Layout>(std::move(r));
    if (!p.layout->extent) {
        p.error = QStringLiteral("A CuTe layout maps (thread, value) to an index: give its shape, DIM0xDIM1 "
                                 "(CuTe's convention: A MxK, B NxK, C MxN, column-major)");
        return p;
    }
    std::string error;
    const std::optional<std::vector<layout_in::Coord>> cells =
        layout_in::cellsIn(*p.layout, *p.layout->extent, error);
    if (!cells) {
        p.error = qs(error);
        return p;
    }
    p.extent = p.layout->extent;
    p.drawn = std::make_shared<const Instruction>(layout_in::instructionOf(*p.layout, *p.extent, *cells));
    p.summary = QStringLiteral("%1, %2 threads x %3 values over %4: %5")
                    .arg(qs(layout_in::toString(p.layout->notation)))
                    .arg(p.layout->threads)
                    .arg(p.layout->values)
                    .arg(qs(layout_in::toString(*p.extent)))
                    .arg(qs(p.layout->canonical));
    p.ok = true;
    return p;
}

std::vector<Operand> comparableOperands(const PastedLayout& pasted, const Instruction& current) {
    std::vector<Operand> out;
    if (!pasted.ok)
        return out;
    if (pasted.shared) {
        for (const Placement& p : current.placements)
            if (p.space() == Space::SharedMemory && p.shared())
                for (Operand o : {Operand::A, Operand::B})
                    if (p.operands().contains(o) && std::find(out.begin(), out.end(), o) == out.end())
                        out.push_back(o);
        return out;
    }
    for (const FragmentLayout& op : current.operands)
        if (op.operand() != Operand::Metadata && std::find(out.begin(), out.end(), op.operand()) == out.end())
            out.push_back(op.operand());
    return out;
}

PastedComparison comparePasted(const PastedLayout& pasted, const Instruction& current, Operand operand) {
    PastedComparison c;
    if (!pasted.ok) {
        c.error = QStringLiteral("Nothing to compare: the layout does not read");
        return c;
    }
    c.hardware = qs(layout_in::hardwareStatus(current));
    if (pasted.shared) {
        const smem::SharedOperand* op = nullptr;
        for (const Placement& p : current.placements)
            if (p.space() == Space::SharedMemory && p.shared() && p.operands().contains(operand))
                op = p.shared();
        if (!op) {
            c.error =
                QStringLiteral("%1 has no shared-memory %2").arg(qs(current.spec), qs(toString(operand)));
            return c;
        }
        // lanemap's operand as drawn (its major-ness and swizzle), over whole tiles covering the layout.
        const Variant* variant = Catalog::instance().variant(current.spec);
        std::string error;
        const std::optional<smem::SharedOperand> over =
            variant
                ? layout_in::coveringOperand(*pasted.sharedLayout, *variant, operand,
                                             smem::Choice{op->layout.major(), op->layout.swizzle()}, error)
                : std::nullopt;
        if (!over) {
            c.error = qs(error.empty() ? current.spec + " is no catalog instruction" : error);
            return c;
        }
        const layout_in::SharedComparison s = layout_in::compareShared(*pasted.sharedLayout, *over);
        c.cells = s.cells;
        c.differing = s.differing;
        if (!s.sameShape) {
            c.error = qs(s.why);
            return c;
        }
        if (!s.first.empty()) {
            const layout_in::ByteDifference& d = s.first.front();
            c.firstDifference = QStringLiteral("(mn %1, k %2): layout byte %3, lanemap byte %4")
                                    .arg(d.mn)
                                    .arg(d.k)
                                    .arg(d.layout)
                                    .arg(d.operand);
        }
        c.text = QStringLiteral("Against %1 %2 in shared memory as drawn (%3-major, %4 swizzle): %5. %6")
                     .arg(qs(current.spec), qs(toString(operand)), qs(smem::toString(op->layout.major())),
                          qs(smem::toString(op->layout.swizzle())),
                          s.equal() ? QStringLiteral("equal, every element at the same byte")
                                    : QStringLiteral("%1 of %2 elements at another byte; first %3")
                                          .arg(s.differing)
                                          .arg(s.cells)
                                          .arg(c.firstDifference),
                          c.hardware);
        c.ok = true;
        return c;
    }
    const FragmentLayout* op = layout_in::accumulatorOr(current, operand);
    if (!op) {
        c.error =
            QStringLiteral("%1 has no register operand %2").arg(qs(current.spec), qs(toString(operand)));
        return c;
    }
    const layout_in::Layout& l = *pasted.layout;
    const layout_in::Comparison cmp = layout_in::compare(l, *op, 1);
    c.cells = cmp.cells;
    c.differing = cmp.differing;
    if (!cmp.expressible || !cmp.sameShape) {
        c.error = qs(cmp.why);
        return c;
    }
    // The partner the compare page draws: the layout's cells in lanemap's orientation, named as the operand.
    const layout_in::Extent e = layout_in::extentOf(*op, l.notation);
    std::string error;
    std::optional<std::vector<layout_in::Coord>> cells = layout_in::cellsIn(l, e, error);
    if (!cells) {
        c.error = qs(error);
        return c;
    }
    const bool swap = layout_in::isCute(l.notation) && operand == Operand::B;
    if (swap)
        for (layout_in::Coord& x : *cells)
            std::swap(x.d0, x.d1);
    layout_in::Layout named = l;
    named.operand = operand;
    // Drawn as lanemap draws the operand: Triton's axes, whatever the notation.
    named.notation = layout_in::isCute(l.notation) ? layout_in::Notation::TritonLinear : l.notation;
    named.lanesPerWarp = layout_in::isCute(l.notation) ? kWarpSize : l.lanesPerWarp;
    const layout_in::Extent drawnExtent = swap ? layout_in::Extent{e.dim1, e.dim0, e.products} : e;
    auto partner = std::make_shared<Instruction>(layout_in::instructionOf(named, drawnExtent, *cells));
    partner->ptx = std::string(layout_in::toString(l.notation)) + ": " + l.canonical;
    if (layout_in::isCute(l.notation)) { // drawn in lanemap's orientation, numbered as CuTe numbers values
        Presentation words = partner->placements.front().presentation();
        words.subtitle = std::to_string(l.values) + " values per thread (CuTe's value mode)";
        partner->placements.front().setPresentation(std::move(words));
    }
    c.partner = std::move(partner);
    if (!cmp.first.empty()) {
        const layout_in::CellDifference& d = cmp.first.front();
        const char letter =
            std::string_view(op->name()).empty() ? 'a' : static_cast<char>(std::tolower(op->name()[0]));
        std::string owners, theirs;
        for (const layout_in::Owner& o : d.layout)
            owners += (owners.empty() ? "" : " / ") + layout_in::describeOwner(o, l, letter);
        for (const layout_in::Owner& o : d.operand)
            theirs += (theirs.empty() ? "" : " / ") + layout_in::describeOwner(o, l, letter);
        c.firstDifference = QStringLiteral("%1 (lanemap %2 row %3, column %4): the layout has %5, %6 has %7")
                                .arg(qs(layout_in::describeCell(d.at, l, e, operand)), qs(toString(operand)))
                                .arg(d.row)
                                .arg(d.col)
                                .arg(qs(owners.empty() ? std::string("no owner") : owners), qs(current.spec),
                                     qs(theirs.empty() ? std::string("no owner") : theirs));
    }
    c.text = cmp.equal()
                 ? QStringLiteral("Equal to %1 %2: every one of the %3 cells held by the same (thread, "
                                  "value). %4")
                       .arg(qs(current.spec), qs(toString(operand)))
                       .arg(cmp.cells)
                       .arg(c.hardware)
                 : QStringLiteral("Differs from %1 %2 in %3 of %4 cells; first %5. %6")
                       .arg(qs(current.spec), qs(toString(operand)))
                       .arg(cmp.differing)
                       .arg(cmp.cells)
                       .arg(c.firstDifference, c.hardware);
    c.ok = true;
    return c;
}

} // namespace lanemap::gui
