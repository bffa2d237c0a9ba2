#pragma once
// A register fragment: which thread, register and bits hold which element of one operand, as the PTX fragment
// tables state it (a formula (lane, i) -> (row, col)), and the inverse. The register dialect of a Placement
// (lanemap/placement.hpp).

#include "lanemap/vocabulary.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

namespace lanemap {

// Thread coordinates in the PTX manual's vocabulary.
struct Lane {
    int thread = 0;            // %laneid for warp scope, 0..127 in a warpgroup
    int lane = 0;              // thread % 32
    int warp = 0;              // thread / 32 (warp within the warpgroup)
    int groupID = 0;           // lane >> 2
    int threadID_in_group = 0; // lane % 4

    static constexpr Lane of(int thread) {
        return Lane{thread, laneOf(thread), warpOf(thread), laneOf(thread) >> 2, laneOf(thread) % 4};
    }
};

// Where one element lands. For sparse A, [col, colLast] is the chunk the element may occupy;
// for everything else col == colLast. `matrix` numbers the independent products of Volta's
// m8n8k4 quad-pairs (0..3); -1 elsewhere.
struct Cell {
    int row = 0;
    int col = 0;
    int colLast = -1; // -1: same as col
    int matrix = -1;
};

// One element of one operand: a (thread, element index) pair and where it lives.
struct Element {
    std::uint16_t thread = 0;
    std::uint16_t index = 0; // PTX element number (a0, a1, ...)
    std::uint16_t reg = 0;   // register = index / elements per register
    std::uint8_t bit = 0;    // lowest bit of the element inside its register
    std::int8_t matrix = -1; // quad-pair product for m8n8k4 .f16, else -1
    std::uint16_t row = 0;
    std::uint16_t col = 0;     // first column
    std::uint16_t colLast = 0; // last column (== col unless sparse A chunk)
    Source source = Source::Doc;

    friend bool operator==(const Element&, const Element&) = default;
};

// What the iterators over a fragment's elements (ElementRange, OwnerRange) are to the standard library:
// forward iterators over const Elements.
struct ElementIterator {
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::forward_iterator_tag;
    using value_type = Element;
    using difference_type = std::ptrdiff_t;
    using pointer = const Element*;
    using reference = const Element&;
};

// The elements of a fragment in (thread, index) order: `perThread` of every thread, `stride` apart in the
// storage. A fragment built on its own is contiguous (stride == perThread); a cut of a wider one
// (FragmentLayout::leadingRegisters) reads the wider one's storage in place, skipping the registers it does
// not keep, so the catalog holds each wgmma D and tcgen05.ld/st access once, not once per N or .num.
class ElementRange {
  public:
    class iterator : public ElementIterator {
      public:
        iterator() = default;
        const Element& operator*() const { return *m_at; }
        const Element* operator->() const { return m_at; }
        iterator& operator++() {
            ++m_at;
            if (m_at == m_rowEnd && m_at != m_end) { // on to the next thread's first element
                m_at += m_skip;
                m_rowEnd = m_at + m_perThread;
            }
            return *this;
        }
        iterator operator++(int) {
            iterator was = *this;
            ++*this;
            return was;
        }
        friend bool operator==(const iterator& a, const iterator& b) { return a.m_at == b.m_at; }

      private:
        friend class ElementRange;
        iterator(const Element* at, const Element* end, std::ptrdiff_t perThread, std::ptrdiff_t skip)
            : m_at(at), m_rowEnd(at + perThread), m_end(end), m_perThread(perThread), m_skip(skip) {}
        const Element* m_at = nullptr;
        const Element* m_rowEnd = nullptr;
        const Element* m_end = nullptr; // one past the last thread's last element
        std::ptrdiff_t m_perThread = 0, m_skip = 0;
    };

    ElementRange() = default;
    ElementRange(const Element* base, std::size_t threads, std::size_t perThread, std::size_t stride)
        : m_base(base), m_threads(threads), m_perThread(perThread), m_stride(stride) {}

    std::size_t size() const { return m_threads * m_perThread; }
    bool empty() const { return size() == 0; }
    bool contiguous() const { return m_perThread == m_stride; }
    // The k-th element in (thread, index) order.
    const Element& operator[](std::size_t k) const {
        return contiguous() ? m_base[k] : m_base[k / m_perThread * m_stride + k % m_perThread];
    }
    const Element& front() const { return m_base[0]; }
    const Element& back() const { return (*this)[size() - 1]; }
    iterator begin() const {
        return empty() ? end() : iterator(m_base, last(), static_cast<std::ptrdiff_t>(m_perThread), skip());
    }
    iterator end() const { return iterator(last(), last(), 0, 0); }
    // The storage it reads: a cut's is the fragment it was cut from.
    const Element* storage() const { return m_base; }

  private:
    std::ptrdiff_t skip() const { return static_cast<std::ptrdiff_t>(m_stride - m_perThread); }
    const Element* last() const {
        return empty() ? m_base : m_base + (m_threads - 1) * m_stride + m_perThread;
    }
    const Element* m_base = nullptr;
    std::size_t m_threads = 0, m_perThread = 0, m_stride = 0;
};

// The elements that hold one cell (FragmentLayout::owners), in (thread, index) order: one for most operands;
// more where a cell is held twice (wmma) or sparse chunks cover it; none where nothing holds it. Each is
// named by its slot, its position in the storage the layout reads (FragmentLayout::slotOf).
class OwnerRange {
  public:
    class iterator : public ElementIterator {
      public:
        iterator() = default;
        const Element& operator*() const { return m_base[*m_slot]; }
        const Element* operator->() const { return m_base + *m_slot; }
        iterator& operator++() {
            ++m_slot;
            return *this;
        }
        iterator operator++(int) {
            iterator was = *this;
            ++m_slot;
            return was;
        }
        friend bool operator==(const iterator& a, const iterator& b) { return a.m_slot == b.m_slot; }

      private:
        friend class OwnerRange;
        iterator(const Element* base, const std::uint32_t* slot) : m_base(base), m_slot(slot) {}
        const Element* m_base = nullptr;
        const std::uint32_t* m_slot = nullptr;
    };

    OwnerRange() = default;
    OwnerRange(const Element* base, std::span<const std::uint32_t> ownerSlots)
        : m_base(base), m_slots(ownerSlots) {}

    std::size_t size() const { return m_slots.size(); }
    bool empty() const { return m_slots.empty(); }
    const Element& operator[](std::size_t k) const { return m_base[m_slots[k]]; }
    const Element& front() const { return m_base[m_slots.front()]; }
    iterator begin() const { return iterator(m_base, m_slots.data()); }
    iterator end() const { return iterator(m_base, m_slots.data() + m_slots.size()); }

  private:
    const Element* m_base = nullptr;
    std::span<const std::uint32_t> m_slots;
};

static_assert(std::forward_iterator<ElementRange::iterator> && std::forward_iterator<OwnerRange::iterator>);

// Per-thread description of one operand fragment as a formula: (lane, i) -> cell.
// Layout tables (core/src/families/*.cpp) are lists of these.
using PlaceFn = Cell (*)(const Lane& lane, int i, int n);

// Static facts about one operand's fragment: a row of the PTX fragment tables.
struct FragmentShape {
    int rows = 0;
    int cols = 0;
    int matrices = 1;      // 4 for m8n8k4 .f16 (quad-pair products)
    int registers = 0;     // per thread
    int registerBits = 32; // 32 or 64
    int elementsPerRegister = 1;
};

class FragmentLayout {
  public:
    FragmentLayout() = default;

    // Build from a formula. `elementBits` are the data bits; `bitPad` is the offset of the data inside
    // its container (e.g. e2m1 sits in the middle 4 bits of an 8-bit container: pad 2).
    static FragmentLayout build(Operand operand, ElementType elementType, int elementBits, int threads,
                                const FragmentShape& shape, PlaceFn place, int n, Source source,
                                int bitPad = 0);

    // The first `registers` registers of every thread of `full`, which must cover exactly its first `cols`
    // columns: the same layout as building the narrower shape from the formula, read in place (elements and
    // inverse map) instead of evaluated.
    // (wgmma D: the m64nN fragment is the m64n256 one cut after N/2 registers, Figs. 149-155.) Throws
    // std::logic_error when the kept registers do not fill those columns one owner per cell.
    static FragmentLayout leadingRegisters(const FragmentLayout& full, int registers, int cols);

    // From a function that writes the cells of one thread, cells[reg * elementsPerRegister + part], called
    // once per thread in order: a formula that needs more than a PlaceFn's (lane, index, n), such as a
    // tcgen05.ld/st access map, which counts its repetitions across a thread instead of working each out
    // per element. Every cell must be in range (std::logic_error otherwise).
    using ThreadCells = std::function<void(int thread, std::span<Cell> cells)>;
    static FragmentLayout generate(Operand operand, ElementType elementType, int elementBits, int threads,
                                   const FragmentShape& shape, const ThreadCells& threadCells, Source source);

    // From a list of placements, cells[thread * elementsPerThread + i], as discovery observes them (wmma). A
    // cell may have several owners (an element held twice); every cell must be in range. Throws
    // std::logic_error otherwise.
    static FragmentLayout fromCells(Operand operand, ElementType elementType, int elementBits, int threads,
                                    const FragmentShape& shape, std::span<const Cell> cells, Source source);

    // From its elements, elements[thread * elementsPerThread + i] with thread and index set to those (the
    // composition of atoms into a tile, lanemap/tile.hpp): every cell must be in range, any number of owners
    // per cell, chunks (colLast > col) kept. Throws std::logic_error otherwise.
    static FragmentLayout fromElements(Operand operand, ElementType elementType, int elementBits, int threads,
                                       const FragmentShape& shape, std::vector<Element> elements);

    // The same placement named as another operand, its tables shared: tcgen05.st's A is tcgen05.ld's D.
    FragmentLayout asOperand(Operand operand) const {
        FragmentLayout layout = *this;
        layout.m_operand = operand;
        return layout;
    }

    // How many distinct cells at least one element covers, and the most owners one cell has (2: held
    // twice). elements().size() is the number of element slots; a bijection has uniqueCells() == slots.
    int uniqueCells() const;
    int maxOwners() const;

    Operand operand() const { return m_operand; }
    std::string_view name() const { return toString(m_operand); } // label: "A", "B", "C", "D"
    ElementType elementType() const { return m_elementType; }
    int rows() const { return m_shape.rows; }
    int cols() const { return m_shape.cols; }
    int matrices() const { return m_shape.matrices; }
    int threads() const { return m_threads; }
    int registers() const { return m_shape.registers; }
    int registerBits() const { return m_shape.registerBits; }
    int elementBits() const { return m_elementBits; }
    int containerBits() const { return m_shape.registerBits / m_shape.elementsPerRegister; }
    int elementsPerRegister() const { return m_shape.elementsPerRegister; }
    int elementsPerThread() const { return m_shape.registers * m_shape.elementsPerRegister; }
    bool chunked() const { return m_data->chunked; } // sparse A: elements cover column ranges

    // Elements sorted by (thread, index).
    ElementRange elements() const {
        return ElementRange(m_data->base, static_cast<std::size_t>(m_threads),
                            static_cast<std::size_t>(elementsPerThread()), m_data->stride);
    }
    const Element& element(int thread, int index) const {
        return m_data
            ->base[static_cast<std::size_t>(thread) * m_data->stride + static_cast<std::size_t>(index)];
    }

    // Inverse map: the elements that hold (matrix, row, col), in element order. A list, because not every
    // operand is a bijection (sparse chunks, quad-pair products); empty outside the grid.
    OwnerRange owners(int row, int col, int matrix = 0) const {
        return OwnerRange(m_data->base, ownerSlots(row, col, matrix));
    }
    // The same owners as slots: positions in the storage elements() reads, element(slot) each.
    std::span<const std::uint32_t> ownerSlots(int row, int col, int matrix = 0) const;
    const Element& element(std::uint32_t slot) const { return m_data->base[slot]; }
    std::uint32_t slotOf(const Element& e) const {
        return static_cast<std::uint32_t>(e.thread * m_data->stride + e.index);
    }
    // Whether every cell has exactly one owner.
    bool oneOwnerPerCell() const { return m_data->bijective; }

    // Drop the cache of built layouts (benchmarks measure building from scratch).
    static void clearBuildCache();

  private:
    FragmentLayout(Operand operand, ElementType elementType, int elementBits, int threads,
                   const FragmentShape& shape)
        : m_operand(operand), m_elementType(elementType), m_elementBits(elementBits), m_threads(threads),
          m_shape(shape) {}

    // The placements and their inverse, immutable and shared: wgmma variants of one N share their D layout
    // and every N of one type shares its A layout, so the catalog builds each distinct layout once.
    struct Data {
        bool chunked = false;
        bool bijective = false; // one owner per cell: `inverse` holds its slot, ownerOffsets stays empty
        std::vector<Element> elements; // (thread, index) order; empty in a cut, which reads its parent's
        const Element* base = nullptr; // elements.data(), or the parent's
        std::size_t stride = 0;        // elements per thread in that storage
        std::vector<std::uint32_t> ownerOffsets; // CSR over cells (matrix, row, col), unless bijective
        std::vector<std::uint32_t> ownerList;    // slots, cell after cell
        // A bijection's slots, a row of cells `pitch` apart: ownerList, or in a cut its parent's, of which it
        // keeps the leading columns of every row.
        const std::uint32_t* inverse = nullptr;
        std::size_t pitch = 0;
        std::shared_ptr<const Data>
            parent; // leadingRegisters: keeps the source and its elements alive (its address keys the cache)
        // Per index within a thread (`stride` of them): the furthest column that element reaches in any
        // thread. A cut of the leading registers checks its columns against it, not element by element;
        // worked out the first time one asks (only the widest layouts are cut).
        const std::vector<std::uint16_t>& reach() const;

      private:
        mutable std::once_flag m_reachOnce;
        mutable std::vector<std::uint16_t> m_reach;
    };
    friend struct LayoutCaches;
    // The elements of a layout built from a formula, each where `cellAt(lane, index, reg, part)` puts it,
    // and their inverse, written in the same pass while every cell has one owner (model.cpp).
    template <class CellAt>
    static std::shared_ptr<Data> placeElements(const FragmentLayout& layout, int bitPad, Source source,
                                               std::string_view what, CellAt&& cellAt);
    // A layout given its elements (fromElements: a tile): its storage, one thread after another, and its
    // inverse.
    static void ownElements(Data& data, const FragmentShape& shape);
    // The inverse as a list of owners per cell: sparse chunks, cells held twice.
    static void buildOwnerLists(Data& data, const FragmentShape& shape);

    Operand m_operand = Operand::A;
    ElementType m_elementType = ElementType::F16;
    int m_elementBits = 0;
    int m_threads = 0;
    FragmentShape m_shape;
    std::shared_ptr<const Data> m_data = std::make_shared<const Data>();
};

} // namespace lanemap
