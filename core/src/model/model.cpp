#include "lanemap/model.hpp"

#include "lanemap/evidence.hpp"
#include "model/build_cache.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

namespace lanemap {

std::string_view toString(Scope scope) {
    switch (scope) {
    case Scope::Warp:
        return "warp";
    case Scope::Warpgroup:
        return "warpgroup";
    case Scope::Cta:
        return "CTA";
    }
    return "warp";
}

std::string_view toString(Source source) {
    switch (source) {
    case Source::Doc:
        return "doc";
    case Source::Figure:
        return "figure";
    case Source::Inferred:
        return "inferred";
    case Source::Cutlass:
        return "cutlass";
    case Source::Hardware:
        return "hardware";
    case Source::Discovered:
        return "discovered";
    }
    return "doc";
}

std::string_view toString(ErratumStatus status) {
    switch (status) {
    case ErratumStatus::Suspected:
        return "suspected";
    case ErratumStatus::Confirmed:
        return "confirmed";
    case ErratumStatus::Refuted:
        return "refuted";
    }
    return "suspected";
}

std::string_view toString(Major major) {
    return major == Major::Row ? "row" : "col";
}

std::string shapeWord(int m, int n, int k) {
    // Written into one buffer: registering the catalog names ~800 shapes, twice each.
    char buf[48];
    char* p = buf;
    auto put = [&](char c, int value) {
        if (p == buf + sizeof buf) // never: three numbers fit; says so to GCC's overflow check
            return;
        *p++ = c;
        p = std::to_chars(p, buf + sizeof buf, value).ptr;
    };
    put('m', m);
    put('n', n);
    if (k >= 0)
        put('k', k);
    return std::string(buf, p);
}

std::string shapeName(const Variant& v) {
    return v.family->shape(v);
}

std::string ptxOf(const Variant& v, const Form& form) {
    return v.family->ptx(v, form);
}

namespace detail {
namespace {
struct Registry {
    std::mutex mutex;
    std::vector<std::pair<void (*)(void*), void*>> caches;
};
Registry& registry() {
    static Registry r;
    return r;
}
} // namespace

void registerCache(void (*clear)(void*), void* cache) {
    std::lock_guard lock(registry().mutex);
    registry().caches.emplace_back(clear, cache);
}

void clearAllCaches() {
    std::vector<std::pair<void (*)(void*), void*>> caches;
    {
        std::lock_guard lock(registry().mutex);
        caches = registry().caches;
    }
    for (auto [clear, cache] : caches)
        clear(cache);
}
} // namespace detail

namespace {
// Layouts are pure functions of these facts; the element type's name is not among them.
struct BuildKey {
    PlaceFn place;
    int threads, n, elementBits, bitPad;
    FragmentShape shape;
    Source source;
    bool operator<(const BuildKey& o) const {
        return std::tie(place, threads, n, elementBits, bitPad, shape.rows, shape.cols, shape.matrices,
                        shape.registers, shape.registerBits, shape.elementsPerRegister,
                        source) < std::tie(o.place, o.threads, o.n, o.elementBits, o.bitPad, o.shape.rows,
                                           o.shape.cols, o.shape.matrices, o.shape.registers,
                                           o.shape.registerBits, o.shape.elementsPerRegister, o.source);
    }
};
// A cut of a built layout: (its data, registers kept, columns kept).
using CutKey = std::tuple<const void*, int, int>;

// A bijection's inverse, one slot per cell, filled as elements claim their cells: a cell claimed twice
// means the layout is not a bijection after all (its owner lists are built instead).
constexpr std::uint32_t kNoOwner = 0xFFFFFFFFu;
struct Claims {
    std::uint32_t* owner;
    std::size_t rows, cols;
    bool clashed = false;
    void claim(int matrix, int row, int col, std::uint32_t slot) {
        std::uint32_t& cell =
            owner[(static_cast<std::size_t>(matrix) * rows + static_cast<std::size_t>(row)) * cols +
                  static_cast<std::size_t>(col)];
        clashed = clashed || cell != kNoOwner;
        cell = slot;
    }
};

} // namespace

struct LayoutCaches {
    static detail::SharedCache<BuildKey, FragmentLayout::Data>& built() {
        static detail::SharedCache<BuildKey, FragmentLayout::Data> c;
        return c;
    }
    static detail::SharedCache<CutKey, FragmentLayout::Data>& cuts() {
        static detail::SharedCache<CutKey, FragmentLayout::Data> c;
        return c;
    }
};

// One thread after another, each thread's register by register and part by part (its element indices in
// order), each cell checked to lie in the layout's shape (else std::logic_error "`what` out of range for
// <layout>"). Counting registers and parts, not dividing them out of the index, keeps an integer division
// per element out of the catalog build, and claiming each cell as its element is placed writes a
// bijection's inverse without a second pass over the elements.
template <class CellAt>
std::shared_ptr<FragmentLayout::Data> FragmentLayout::placeElements(const FragmentLayout& layout, int bitPad,
                                                                    Source source, std::string_view what,
                                                                    CellAt&& cellAt) {
    const int registers = layout.registers(), parts = layout.elementsPerRegister();
    const int container = layout.containerBits();
    const int rows = layout.rows(), cols = layout.cols(), matrices = layout.matrices();
    const std::size_t plane = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    const std::size_t slots =
        static_cast<std::size_t>(layout.threads()) * static_cast<std::size_t>(registers * parts);
    auto data = std::make_shared<Data>();
    data->elements.resize(slots);
    // One slot per cell may be a bijection (a chunk is not).
    const bool oneEach = slots == plane * static_cast<std::size_t>(matrices);
    if (oneEach)
        data->ownerList.assign(slots, kNoOwner);
    Claims claims{data->ownerList.data(), static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)};
    bool chunked = false;
    const auto within = [](int value, int bound) {
        return static_cast<unsigned>(value) < static_cast<unsigned>(bound);
    };
    Element* at = data->elements.data();
    std::uint32_t slot = 0;
    for (int thread = 0; thread < layout.threads(); ++thread) {
        const Lane lane = Lane::of(thread);
        int index = 0;
        for (int reg = 0; reg < registers; ++reg)
            for (int part = 0; part < parts; ++part, ++index, ++slot, ++at) {
                const Cell cell = cellAt(lane, index, reg, part);
                const int colLast = cell.colLast < 0 ? cell.col : cell.colLast;
                const int matrix = matrices > 1 ? cell.matrix : 0;
                if (!within(cell.row, rows) || !within(cell.col, cols) || !within(colLast, cols) ||
                    colLast < cell.col || !within(matrix, matrices))
                    throw std::logic_error(std::string(what) + " out of range for " +
                                           std::string(layout.name()));
                *at = Element{static_cast<std::uint16_t>(thread),
                              static_cast<std::uint16_t>(index),
                              static_cast<std::uint16_t>(reg),
                              static_cast<std::uint8_t>(part * container + bitPad),
                              static_cast<std::int8_t>(matrices > 1 ? cell.matrix : -1),
                              static_cast<std::uint16_t>(cell.row),
                              static_cast<std::uint16_t>(cell.col),
                              static_cast<std::uint16_t>(colLast),
                              source};
                chunked = chunked || colLast != cell.col;
                if (oneEach)
                    claims.claim(matrix, cell.row, cell.col, slot);
            }
    }
    data->chunked = chunked;
    data->base = data->elements.data();
    data->stride = static_cast<std::size_t>(registers) * static_cast<std::size_t>(parts);
    if (oneEach && !chunked && !claims.clashed) {
        data->bijective = true;
        data->inverse = data->ownerList.data();
        data->pitch = static_cast<std::size_t>(cols);
    } else {
        data->ownerList.clear();
        buildOwnerLists(*data, layout.m_shape);
    }
    return data;
}

void FragmentLayout::clearBuildCache() {
    detail::clearAllCaches();
}

FragmentLayout FragmentLayout::build(Operand operand, ElementType elementType, int elementBits, int threads,
                                     const FragmentShape& shape, PlaceFn place, int n, Source source,
                                     int bitPad) {
    FragmentLayout layout(operand, elementType, elementBits, threads, shape);

    const BuildKey key{place, threads, n, elementBits, bitPad, shape, source};
    layout.m_data = LayoutCaches::built().get(key, [&] {
        return placeElements(layout, bitPad, source, "layout formula",
                             [&](const Lane& lane, int index, int, int) { return place(lane, index, n); });
    });
    return layout;
}

FragmentLayout FragmentLayout::leadingRegisters(const FragmentLayout& full, int registers, int cols) {
    FragmentLayout layout = full;
    layout.m_shape.registers = registers;
    layout.m_shape.cols = cols;
    const auto fail = [&](const std::string& why) {
        return std::logic_error("leadingRegisters(" + std::string(full.name()) + ", " +
                                std::to_string(registers) + ", " + std::to_string(cols) + "): " + why);
    };
    if (registers < 1 || registers > full.registers() || cols < 1 || cols > full.cols() ||
        full.matrices() != 1)
        throw fail("out of range");
    if (registers == full.registers() && cols == full.cols())
        return layout;
    layout.m_data = LayoutCaches::cuts().get(CutKey{full.m_data.get(), registers, cols}, [&] {
        if (!full.m_data->bijective)
            throw fail("the full layout is not one owner per cell");
        const std::size_t per = static_cast<std::size_t>(layout.elementsPerThread());
        const std::size_t threads = static_cast<std::size_t>(full.threads());
        const std::size_t cells = static_cast<std::size_t>(full.rows()) * static_cast<std::size_t>(cols);
        if (threads * per != cells)
            throw fail("the kept registers do not hold one element per cell");
        auto data = std::make_shared<Data>();
        data->parent = full.m_data;
        data->bijective = true;
        // Nothing is copied: the cut reads the full layout's elements, skipping the registers it does not
        // keep, and its inverse map, keeping the leading `cols` of every row. Checked: a subset of a
        // bijection is injective; with one element per cell, all in the leading columns, it is a bijection
        // onto them, so the full layout's owner of each of those cells is a kept element.
        data->base = full.m_data->base;
        data->stride = full.m_data->stride;
        data->inverse = full.m_data->inverse;
        data->pitch = full.m_data->pitch;
        // Every thread and the leading indices are kept, so the layout that owns the storage answers.
        const Data* owner = full.m_data.get();
        while (owner->parent)
            owner = owner->parent.get();
        const std::vector<std::uint16_t>& reach = owner->reach();
        for (std::size_t i = 0; i < per; ++i)
            if (reach[i] >= cols)
                throw fail("element " + std::to_string(i) + " of a thread reaches column " +
                           std::to_string(reach[i]));
        return data;
    });
    return layout;
}

FragmentLayout FragmentLayout::generate(Operand operand, ElementType elementType, int elementBits,
                                        int threads, const FragmentShape& shape,
                                        const ThreadCells& threadCells, Source source) {
    FragmentLayout layout(operand, elementType, elementBits, threads, shape);
    std::vector<Cell> cells(static_cast<std::size_t>(layout.elementsPerThread()));
    layout.m_data =
        placeElements(layout, 0, source, "generate: cell", [&](const Lane& lane, int index, int, int) {
            if (index == 0)
                threadCells(lane.thread, cells);
            return cells[static_cast<std::size_t>(index)];
        });
    return layout;
}

FragmentLayout FragmentLayout::fromCells(Operand operand, ElementType elementType, int elementBits,
                                         int threads, const FragmentShape& shape, std::span<const Cell> cells,
                                         Source source) {
    FragmentLayout layout(operand, elementType, elementBits, threads, shape);
    const int perThread = layout.elementsPerThread();
    if (cells.size() != static_cast<std::size_t>(threads * perThread))
        throw std::logic_error("fromCells: " + std::to_string(cells.size()) + " cells for " +
                               std::to_string(threads) + " threads x " + std::to_string(perThread));
    layout.m_data =
        placeElements(layout, 0, source, "fromCells: cell", [&](const Lane& lane, int index, int, int) {
            return cells[static_cast<std::size_t>(lane.thread * perThread + index)];
        });
    return layout;
}

FragmentLayout FragmentLayout::fromElements(Operand operand, ElementType elementType, int elementBits,
                                            int threads, const FragmentShape& shape,
                                            std::vector<Element> elements) {
    FragmentLayout layout(operand, elementType, elementBits, threads, shape);
    const std::size_t perThread = static_cast<std::size_t>(layout.elementsPerThread());
    if (elements.size() != static_cast<std::size_t>(threads) * perThread)
        throw std::logic_error("fromElements: " + std::to_string(elements.size()) + " elements for " +
                               std::to_string(threads) + " threads x " + std::to_string(perThread));
    auto data = std::make_shared<Data>();
    for (std::size_t k = 0; k < elements.size(); ++k) {
        const Element& e = elements[k];
        if (e.thread != k / perThread || e.index != k % perThread || e.row >= shape.rows ||
            e.colLast >= shape.cols || e.colLast < e.col ||
            (shape.matrices > 1 ? e.matrix < 0 || e.matrix >= shape.matrices : e.matrix >= 0))
            throw std::logic_error("fromElements: element " + std::to_string(k) + " out of place for " +
                                   std::string(layout.name()));
        data->chunked = data->chunked || e.colLast != e.col;
    }
    data->elements = std::move(elements);
    ownElements(*data, shape);
    layout.m_data = std::move(data);
    return layout;
}

int FragmentLayout::uniqueCells() const {
    int held = 0;
    for (int m = 0; m < matrices(); ++m)
        for (int r = 0; r < rows(); ++r)
            for (int c = 0; c < cols(); ++c)
                held += owners(r, c, m).empty() ? 0 : 1;
    return held;
}

int FragmentLayout::maxOwners() const {
    std::size_t most = 0;
    for (int m = 0; m < matrices(); ++m)
        for (int r = 0; r < rows(); ++r)
            for (int c = 0; c < cols(); ++c)
                most = std::max(most, owners(r, c, m).size());
    return static_cast<int>(most);
}

void FragmentLayout::ownElements(Data& data, const FragmentShape& shape) {
    data.base = data.elements.data();
    data.stride =
        static_cast<std::size_t>(shape.registers) * static_cast<std::size_t>(shape.elementsPerRegister);
    const std::size_t cells = static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols) *
                              static_cast<std::size_t>(shape.matrices);
    // A tile of atoms mostly owns every cell once: its inverse is one slot per cell, as for a formula's.
    if (!data.chunked && data.elements.size() == cells) {
        data.ownerList.assign(cells, kNoOwner);
        Claims claims{data.ownerList.data(), static_cast<std::size_t>(shape.rows),
                      static_cast<std::size_t>(shape.cols)};
        for (std::uint32_t slot = 0; slot < data.elements.size() && !claims.clashed; ++slot) {
            const Element& e = data.elements[slot];
            claims.claim(e.matrix < 0 ? 0 : e.matrix, e.row, e.col, slot);
        }
        if (!claims.clashed) {
            data.bijective = true;
            data.inverse = data.ownerList.data();
            data.pitch = static_cast<std::size_t>(shape.cols);
            return;
        }
        data.ownerList.clear();
    }
    buildOwnerLists(data, shape);
}

const std::vector<std::uint16_t>& FragmentLayout::Data::reach() const {
    std::call_once(m_reachOnce, [this] {
        m_reach.assign(stride, 0);
        for (std::size_t k = 0; k < elements.size(); k += stride)
            for (std::size_t i = 0; i < stride; ++i)
                m_reach[i] = std::max(m_reach[i], elements[k + i].colLast);
    });
    return m_reach;
}

void FragmentLayout::buildOwnerLists(Data& data, const FragmentShape& shape) {
    const std::size_t plane = static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols);
    const std::size_t cells = plane * static_cast<std::size_t>(shape.matrices);
    auto cellOf = [&](const Element& e, int col) {
        const std::size_t m = e.matrix < 0 ? 0 : static_cast<std::size_t>(e.matrix);
        return m * plane + static_cast<std::size_t>(e.row) * static_cast<std::size_t>(shape.cols) +
               static_cast<std::size_t>(col);
    };
    // A counting sort of (cell, element) pairs into CSR.
    data.ownerOffsets.assign(cells + 1, 0);
    for (const Element& e : data.elements)
        for (int c = e.col; c <= e.colLast; ++c)
            ++data.ownerOffsets[cellOf(e, c) + 1];
    for (std::size_t i = 1; i <= cells; ++i)
        data.ownerOffsets[i] += data.ownerOffsets[i - 1];
    data.ownerList.resize(data.ownerOffsets[cells]);
    for (std::uint32_t idx = 0; idx < data.elements.size(); ++idx) {
        const Element& e = data.elements[idx];
        for (int c = e.col; c <= e.colLast; ++c)
            data.ownerList[data.ownerOffsets[cellOf(e, c)]++] = idx;
    }
    // The fill advanced each offset to the next cell's start: shift back by one cell.
    for (std::size_t i = cells; i > 0; --i)
        data.ownerOffsets[i] = data.ownerOffsets[i - 1];
    data.ownerOffsets[0] = 0;
}

std::span<const std::uint32_t> FragmentLayout::ownerSlots(int row, int col, int matrix) const {
    if (row < 0 || row >= m_shape.rows || col < 0 || col >= m_shape.cols || matrix < 0 ||
        matrix >= m_shape.matrices)
        return {};
    const std::size_t line = static_cast<std::size_t>(matrix) * static_cast<std::size_t>(m_shape.rows) +
                             static_cast<std::size_t>(row);
    if (m_data->bijective)
        return {m_data->inverse + line * m_data->pitch + static_cast<std::size_t>(col), 1};
    const std::size_t cell = line * static_cast<std::size_t>(m_shape.cols) + static_cast<std::size_t>(col);
    return {m_data->ownerList.data() + m_data->ownerOffsets[cell],
            m_data->ownerOffsets[cell + 1] - m_data->ownerOffsets[cell]};
}

const FragmentLayout* Instruction::operand(Operand which) const {
    for (const FragmentLayout& op : operands)
        if (op.operand() == which)
            return &op;
    return nullptr;
}

const Placement* Instruction::placement(Space space, Operand which) const {
    for (const Placement& p : placements)
        if (p.space() == space && p.operands().contains(which))
            return &p;
    return nullptr;
}

bool Instruction::hasSpace(Space space) const {
    for (const Placement& p : placements)
        if (p.space() == space)
            return true;
    return false;
}

Source Instruction::sourceOf(Source tableSource) const {
    // A document's text formula stays "doc" even when confirmed; figure-only and inferred placements a
    // recorded run confirmed are shown as hardware.
    if (hardware && hardware->verdict == Verdict::Pass && tableSource != Source::Doc)
        return Source::Hardware;
    return tableSource;
}

} // namespace lanemap
