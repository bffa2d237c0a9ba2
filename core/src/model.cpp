#include "lanemap/model.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

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

namespace {
// Layouts are pure functions of these facts; the element type's name is not among them.
struct BuildKey {
    PlaceFn place;
    int threads, n, elementBits, bitPad;
    FragmentShape shape;
    Source source;
    bool operator<(const BuildKey& o) const {
        return std::tie(place, threads, n, elementBits, bitPad, shape.rows, shape.cols, shape.matrices,
                        shape.registers, shape.registerBits, shape.elementsPerRegister, source) <
               std::tie(o.place, o.threads, o.n, o.elementBits, o.bitPad, o.shape.rows, o.shape.cols,
                        o.shape.matrices, o.shape.registers, o.shape.registerBits, o.shape.elementsPerRegister,
                        o.source);
    }
};
std::mutex g_cacheMutex;
std::map<BuildKey, std::weak_ptr<const void>>& cache() {
    static std::map<BuildKey, std::weak_ptr<const void>> c;
    return c;
}
} // namespace

void FragmentLayout::clearBuildCache() {
    std::lock_guard lock(g_cacheMutex);
    cache().clear();
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

    const BuildKey key{place, threads, n, elementBits, bitPad, shape, source};
    {
        std::lock_guard lock(g_cacheMutex);
        auto it = cache().find(key);
        if (it != cache().end())
            if (auto shared = std::static_pointer_cast<const Data>(it->second.lock())) {
                layout.m_data = std::move(shared);
                return layout;
            }
    }

    auto data = std::make_shared<Data>();
    const int perThread = layout.elementsPerThread();
    const int container = layout.containerBits();
    data->elements.resize(static_cast<std::size_t>(threads * perThread));
    Element* out = data->elements.data();
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
            data->chunked = data->chunked || colLast != cell.col;
        }
    }
    buildInverse(*data, shape);
    {
        std::lock_guard lock(g_cacheMutex);
        cache()[key] = std::shared_ptr<const void>(data);
    }
    layout.m_data = std::move(data);
    return layout;
}

void FragmentLayout::buildInverse(Data& data, const FragmentShape& shape) {
    const std::size_t plane = static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols);
    const std::size_t cells = plane * static_cast<std::size_t>(shape.matrices);
    auto cellOf = [&](const Element& e, int col) {
        const std::size_t m = e.matrix < 0 ? 0 : static_cast<std::size_t>(e.matrix);
        return m * plane + static_cast<std::size_t>(e.row) * static_cast<std::size_t>(shape.cols) +
               static_cast<std::size_t>(col);
    };
    // Fast path: most operands own every cell exactly once, so the inverse is one slot per cell.
    if (!data.chunked && data.elements.size() == cells) {
        constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
        data.ownerList.assign(cells, kEmpty);
        bool bijective = true;
        for (std::uint32_t idx = 0; idx < data.elements.size() && bijective; ++idx) {
            std::uint32_t& slot = data.ownerList[cellOf(data.elements[idx], data.elements[idx].col)];
            bijective = slot == kEmpty;
            slot = idx;
        }
        if (bijective) {
            data.ownerOffsets.resize(cells + 1);
            for (std::size_t i = 0; i <= cells; ++i) data.ownerOffsets[i] = static_cast<std::uint32_t>(i);
            return;
        }
    }
    // General case (sparse chunks, shared cells): counting sort of (cell, element) pairs into CSR.
    data.ownerOffsets.assign(cells + 1, 0);
    for (const Element& e : data.elements)
        for (int c = e.col; c <= e.colLast; ++c) ++data.ownerOffsets[cellOf(e, c) + 1];
    for (std::size_t i = 1; i <= cells; ++i) data.ownerOffsets[i] += data.ownerOffsets[i - 1];
    data.ownerList.resize(data.ownerOffsets[cells]);
    for (std::uint32_t idx = 0; idx < data.elements.size(); ++idx) {
        const Element& e = data.elements[idx];
        for (int c = e.col; c <= e.colLast; ++c) data.ownerList[data.ownerOffsets[cellOf(e, c)]++] = idx;
    }
    // The fill advanced each offset to the next cell's start: shift back by one cell.
    for (std::size_t i = cells; i > 0; --i) data.ownerOffsets[i] = data.ownerOffsets[i - 1];
    data.ownerOffsets[0] = 0;
}

std::span<const std::uint32_t> FragmentLayout::owners(int row, int col, int matrix) const {
    if (row < 0 || row >= m_shape.rows || col < 0 || col >= m_shape.cols || matrix < 0 ||
        matrix >= m_shape.matrices)
        return {};
    const std::size_t cell =
        (static_cast<std::size_t>(matrix) * static_cast<std::size_t>(m_shape.rows) + static_cast<std::size_t>(row)) *
            static_cast<std::size_t>(m_shape.cols) +
        static_cast<std::size_t>(col);
    return {m_data->ownerList.data() + m_data->ownerOffsets[cell],
            m_data->ownerOffsets[cell + 1] - m_data->ownerOffsets[cell]};
}

FragmentLayout::Data& FragmentLayout::mutableData() {
    // Copy on write: other variants may share this layout.
    auto copy = std::make_shared<Data>(*m_data);
    Data& ref = *copy;
    m_data = std::move(copy);
    return ref;
}

void FragmentLayout::setSource(Source source) {
    for (Element& e : mutableData().elements) e.source = source;
}

void FragmentLayout::setSource(int thread, int index, Source source) {
    mutableData().elements[static_cast<std::size_t>(thread * elementsPerThread() + index)].source = source;
}

const FragmentLayout* Instruction::operand(std::string_view name) const {
    for (const FragmentLayout& op : operands)
        if (op.name() == name) return &op;
    return nullptr;
}

} // namespace lanemap
