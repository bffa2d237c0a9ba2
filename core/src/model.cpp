#include "lanemap/model.hpp"

#include <stdexcept>

namespace lanemap {

std::string_view toString(Scope scope) { return scope == Scope::Warp ? "warp" : "warpgroup"; }

std::string_view toString(Source source) {
    switch (source) {
    case Source::Doc: return "doc";
    case Source::Figure: return "figure";
    case Source::Inferred: return "inferred";
    case Source::Hardware: return "hardware";
    }
    return "doc";
}

std::string_view toString(Family family) {
    switch (family) {
    case Family::Mma: return "mma";
    case Family::MmaSp: return "mma.sp";
    case Family::Wgmma: return "wgmma";
    case Family::WgmmaSp: return "wgmma.sp";
    }
    return "mma";
}

FragmentLayout FragmentLayout::build(std::string name, std::string elementType, int elementBits, int threads,
                                     const FragmentShape& shape, PlaceFn place, int n, Source source,
                                     int bitPad) {
    FragmentLayout layout;
    layout.m_name = std::move(name);
    layout.m_elementType = std::move(elementType);
    layout.m_elementBits = elementBits;
    layout.m_threads = threads;
    layout.m_shape = shape;

    const int perThread = layout.elementsPerThread();
    const int container = layout.containerBits();
    layout.m_elements.resize(static_cast<std::size_t>(threads * perThread));
    Element* out = layout.m_elements.data();
    for (int thread = 0; thread < threads; ++thread) {
        const Lane lane = Lane::of(thread);
        for (int i = 0; i < perThread; ++i) {
            const Cell cell = place(lane, i, n);
            const int colLast = cell.colLast < 0 ? cell.col : cell.colLast;
            if (cell.row < 0 || cell.row >= shape.rows || cell.col < 0 || colLast >= shape.cols ||
                colLast < cell.col || (shape.matrices > 1 && (cell.matrix < 0 || cell.matrix >= shape.matrices)))
                throw std::logic_error("layout formula out of range for " + layout.m_name);
            Element& e = *out++;
            e.thread = static_cast<std::uint16_t>(thread);
            e.index = static_cast<std::uint16_t>(i);
            e.reg = static_cast<std::uint16_t>(i / shape.elementsPerRegister);
            e.bit = static_cast<std::uint8_t>((i % shape.elementsPerRegister) * container + bitPad);
            e.matrix = static_cast<std::int8_t>(shape.matrices > 1 ? cell.matrix : -1);
            e.row = static_cast<std::uint16_t>(cell.row);
            e.col = static_cast<std::uint16_t>(cell.col);
            e.colLast = static_cast<std::uint16_t>(colLast);
            e.source = source;
            layout.m_chunked = layout.m_chunked || colLast != cell.col;
        }
    }
    layout.buildInverse();
    return layout;
}

void FragmentLayout::buildInverse() {
    const std::size_t plane = static_cast<std::size_t>(m_shape.rows) * static_cast<std::size_t>(m_shape.cols);
    const std::size_t cells = plane * static_cast<std::size_t>(m_shape.matrices);
    m_ownerOffsets.assign(cells + 1, 0);
    auto cellOf = [&](const Element& e, int col) {
        const std::size_t m = e.matrix < 0 ? 0 : static_cast<std::size_t>(e.matrix);
        return m * plane + static_cast<std::size_t>(e.row) * static_cast<std::size_t>(m_shape.cols) +
               static_cast<std::size_t>(col);
    };
    for (const Element& e : m_elements)
        for (int c = e.col; c <= e.colLast; ++c) ++m_ownerOffsets[cellOf(e, c) + 1];
    for (std::size_t i = 1; i <= cells; ++i) m_ownerOffsets[i] += m_ownerOffsets[i - 1];
    m_ownerList.resize(m_ownerOffsets[cells]);
    std::vector<std::uint32_t> fill(m_ownerOffsets.begin(), m_ownerOffsets.end() - 1);
    for (std::uint32_t idx = 0; idx < m_elements.size(); ++idx) {
        const Element& e = m_elements[idx];
        for (int c = e.col; c <= e.colLast; ++c) m_ownerList[fill[cellOf(e, c)]++] = idx;
    }
}

std::span<const std::uint32_t> FragmentLayout::owners(int row, int col, int matrix) const {
    if (row < 0 || row >= m_shape.rows || col < 0 || col >= m_shape.cols || matrix < 0 ||
        matrix >= m_shape.matrices)
        return {};
    const std::size_t cell =
        (static_cast<std::size_t>(matrix) * static_cast<std::size_t>(m_shape.rows) + static_cast<std::size_t>(row)) *
            static_cast<std::size_t>(m_shape.cols) +
        static_cast<std::size_t>(col);
    return {m_ownerList.data() + m_ownerOffsets[cell], m_ownerOffsets[cell + 1] - m_ownerOffsets[cell]};
}

void FragmentLayout::setSource(Source source) {
    for (Element& e : m_elements) e.source = source;
}

void FragmentLayout::setSource(int thread, int index, Source source) {
    m_elements[static_cast<std::size_t>(thread * elementsPerThread() + index)].source = source;
}

const FragmentLayout* Instruction::operand(std::string_view name) const {
    for (const FragmentLayout& op : operands)
        if (op.name() == name) return &op;
    return nullptr;
}

} // namespace lanemap
