// Placements: the four dialects of the family tables as constructors of one type, and composition
// (lanemap/placement.hpp).

#include "lanemap/placement.hpp"

#include <stdexcept>

namespace lanemap {

std::string_view toString(Space space) {
    switch (space) {
    case Space::Registers:
        return "registers";
    case Space::SharedMemory:
        return "shared memory";
    case Space::TensorMemory:
        return "Tensor Memory";
    case Space::Global:
        return "global memory";
    }
    return "registers";
}

Space spaceOf(const Location& location) {
    // The alternatives are declared in Space's order.
    return static_cast<Space>(location.index());
}

const Presentation& Placement::presentation() const {
    static const Presentation kDefault;
    return m_presentation ? *m_presentation : kDefault;
}

void Placement::setPresentation(Presentation presentation) {
    m_presentation = std::make_shared<const Presentation>(std::move(presentation));
}

Placement Placement::registers(const FragmentLayout& fragment, int warpSize) {
    Placement p;
    p.m_operands = fragment.operand();
    p.m_space = Space::Registers;
    p.m_type = fragment.elementType();
    p.m_rows = fragment.rows();
    p.m_cols = fragment.cols();
    p.m_matrices = fragment.matrices();
    p.m_threads = fragment.threads();
    p.m_warpSize = warpSize;
    p.m_dialect = fragment;
    return p;
}

Placement Placement::sharedMemory(const smem::SharedOperand& operand) {
    Placement p;
    p.m_operands = operand.operand;
    p.m_space = Space::SharedMemory;
    p.m_type = operand.elementType;
    p.m_rows = operand.rows;
    p.m_cols = operand.cols;
    p.m_dialect = operand;
    return p;
}

Placement Placement::tensorMemory(const TensorMemorySource& source) {
    if (std::string why = tmem::validate(source.mma); !why.empty())
        throw std::invalid_argument(why);
    if (source.operand != Operand::D && source.operand != Operand::A)
        throw std::invalid_argument("a tcgen05.mma places D (or A) in Tensor Memory, not " +
                                    std::string(toString(source.operand)));
    Placement p;
    p.m_operands = source.operand;
    p.m_space = Space::TensorMemory;
    p.m_type = source.elementBits == 32 ? ElementType::F32 : ElementType::F16;
    p.m_rows = source.mma.m;
    // A holds K columns of values (K/2 for a sparse A), D holds N.
    p.m_cols = source.operand == Operand::A
                   ? tmem::kOf(source.mma.kind, source.mma.sparse) / (source.mma.sparse ? 2 : 1)
                   : source.mma.n;
    p.m_dialect = source;
    return p;
}

Placement::Cells::Cells(std::size_t cells, std::size_t holdings) : m_table(std::make_shared<Table>()) {
    m_table->offsets.reserve(cells + 1);
    m_table->offsets.push_back(0);
    m_table->expected = holdings;
}

void Placement::Cells::add(const Holding& holding) {
    Table& table = *m_table;
    std::visit(
        [&](const auto& location) {
            using List = std::vector<std::decay_t<decltype(location)>>;
            if (table.sources.empty()) { // the first location names the table's space
                table.locations.template emplace<List>().reserve(table.expected);
                table.sources.reserve(table.expected);
            }
            if (List* list = std::get_if<List>(&table.locations))
                list->push_back(location);
            else
                table.stray = spaceOf(holding.at);
        },
        holding.at);
    table.sources.push_back(holding.source);
}

void Placement::Cells::next() {
    m_table->offsets.push_back(static_cast<std::uint32_t>(m_table->sources.size()));
}

std::size_t Placement::Cells::closed() const {
    return m_table->offsets.size() - 1;
}

Placement Placement::table(OperandSet operands, Space space, ElementType type, int rows, int cols,
                           std::vector<std::vector<Holding>> holdings, int matrices, int threads,
                           int warpSize) {
    std::size_t total = 0;
    for (const std::vector<Holding>& cell : holdings)
        total += cell.size();
    Cells cells(holdings.size(), total);
    for (const std::vector<Holding>& cell : holdings) {
        for (const Holding& h : cell)
            cells.add(h);
        cells.next();
    }
    return table(operands, space, type, rows, cols, std::move(cells), matrices, threads, warpSize);
}

Placement Placement::table(OperandSet operands, Space space, ElementType type, int rows, int cols,
                           Cells cells, int matrices, int threads, int warpSize) {
    if (rows < 0 || cols < 0 || matrices < 1 ||
        cells.closed() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) *
                              static_cast<std::size_t>(matrices))
        throw std::invalid_argument("a placement table needs one list of holdings per cell");
    const Table& stated = *cells.m_table;
    // The alternatives of a table's locations are declared in Space's order, as Location's are.
    const auto first = static_cast<Space>(stated.locations.index());
    if (!stated.sources.empty() && (first != space || stated.stray))
        throw std::invalid_argument("a placement in " + std::string(toString(space)) +
                                    " holds a location in " +
                                    std::string(toString(first != space ? first : *stated.stray)));
    Placement p;
    p.m_operands = operands;
    p.m_space = space;
    p.m_type = type;
    p.m_rows = rows;
    p.m_cols = cols;
    p.m_matrices = matrices;
    p.m_threads = threads;
    p.m_warpSize = warpSize;
    p.m_dialect = std::shared_ptr<const Table>(std::move(cells.m_table));
    return p;
}

const FragmentLayout* Placement::fragment() const {
    return std::get_if<FragmentLayout>(&m_dialect);
}

const smem::SharedOperand* Placement::shared() const {
    return std::get_if<smem::SharedOperand>(&m_dialect);
}

const TensorMemorySource* Placement::tensor() const {
    return std::get_if<TensorMemorySource>(&m_dialect);
}

std::vector<Holding> Placement::at(int row, int col, int matrix) const {
    std::vector<Holding> out;
    if (row < 0 || row >= m_rows || col < 0 || col >= m_cols || matrix < 0 || matrix >= m_matrices)
        return out;
    if (const FragmentLayout* f = fragment()) {
        for (const Element& e : f->owners(row, col, matrix))
            out.push_back({RegisterSlot{0, e.thread, e.reg, e.bit, f->elementBits(), e.index}, e.source});
    } else if (const smem::SharedOperand* s = shared()) {
        const smem::Coord c = s->toLayout(row, col);
        const smem::Placement byte = s->layout.placement(c.mn, c.k);
        out.push_back({SmemByte{byte.address, byte.bit, s->layout.elementBits()}, Source::Doc});
    } else if (const TensorMemorySource* t = tensor()) {
        const tmem::Placement cell = t->operand == Operand::A ? tmem::placeA(t->mma, row, col, t->elementBits)
                                                              : tmem::placeD(t->mma, row, col);
        out.push_back({TmemCell{cell.cta, cell.lane, cell.column, cell.bit, t->elementBits}, Source::Figure});
    } else if (const auto* table = std::get_if<std::shared_ptr<const Table>>(&m_dialect)) {
        const std::size_t cell = (static_cast<std::size_t>(matrix) * static_cast<std::size_t>(m_rows) +
                                  static_cast<std::size_t>(row)) *
                                     static_cast<std::size_t>(m_cols) +
                                 static_cast<std::size_t>(col);
        const Table& stated = **table;
        std::visit(
            [&](const auto& locations) {
                for (std::uint32_t k = stated.offsets[cell]; k < stated.offsets[cell + 1]; ++k)
                    out.push_back({locations[k], stated.sources[k]});
            },
            stated.locations);
    }
    return out;
}

Placement compose(const Placement& source, const tmem::Access& access) {
    const TensorMemorySource* t = source.tensor();
    if (!t)
        throw std::invalid_argument(
            "a tcgen05.ld or tcgen05.st moves a Tensor Memory placement; this one is in " +
            std::string(toString(source.space())));
    const bool a = t->operand == Operand::A;
    if (a != (access.op == tmem::Op::St))
        throw std::invalid_argument(
            a ? "A in Tensor Memory is written by a tcgen05.st, not read by a tcgen05.ld"
              : "D in Tensor Memory is read by a tcgen05.ld, not written by a tcgen05.st");
    if (std::string why = tmem::validate(tmem::View{t->mma, access}); !why.empty())
        throw std::invalid_argument(why);
    // Every warp of the warpgroup moves its subpartition; the registers of the accesses after its first
    // (further columns, the upper 16 lanes) are numbered on after the first's.
    const int perAccess = tmem::registersOf(access);
    const int columns = tmem::columnsOf(access);
    const int bits = access.packed ? 16 : t->elementBits;
    const std::size_t count =
        static_cast<std::size_t>(source.rows()) * static_cast<std::size_t>(source.cols());
    Placement::Cells cells(count, count);
    int threads = 0;
    for (int row = 0; row < source.rows(); ++row)
        for (int col = 0; col < source.cols(); ++col) {
            const tmem::Holder h = a ? tmem::whoHoldsA(t->mma, access, row, col, t->elementBits)
                                     : tmem::whoHoldsD(t->mma, access, row, col);
            const int thread = h.warp * tmem::kSubpartitionLanes + h.thread;
            // A 16-lane shape takes two accesses per subpartition (lane 32 w and 32 w + 16).
            const int halves = tmem::recordOf(access.shape).lanes == 16 ? 2 : 1;
            const int issued =
                h.address.column / columns * halves + (h.address.lane % tmem::kSubpartitionLanes) / 16;
            const int reg = issued * perAccess + h.reg;
            threads = std::max(threads, thread + 1);
            cells.add({RegisterSlot{h.cta, thread, reg, h.bit, bits, reg * (32 / bits) + h.bit / bits},
                       Source::Figure});
            cells.next();
        }
    return Placement::table(source.operands(), Space::Registers,
                            bits == 32 ? ElementType::F32 : ElementType::F16, source.rows(), source.cols(),
                            std::move(cells), 1, threads);
}

} // namespace lanemap
