#pragma once
// A list whose copies share one buffer until one of them is changed. A variant's forms, notes and errata are
// written once, when its table registers, and copied into every Instruction built from it; a build changes
// them for few variants (a wmma's discovery, a tcgen05 split). Copying one is a reference count, not a vector
// of strings (a third of a catalog build's allocations before: docs/performance.md#the-catalog-build).

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace lanemap {

template <class T> class SharedList {
  public:
    using value_type = T;
    using const_iterator = typename std::vector<T>::const_iterator;

    SharedList() = default;
    SharedList(std::initializer_list<T> items) { assign(std::vector<T>(items)); }
    SharedList(std::vector<T> items) { assign(std::move(items)); }
    SharedList& operator=(std::initializer_list<T> items) {
        assign(std::vector<T>(items));
        return *this;
    }
    SharedList& operator=(std::vector<T> items) {
        assign(std::move(items));
        return *this;
    }

    const std::vector<T>& items() const { return m_items ? *m_items : none(); }
    const_iterator begin() const { return items().begin(); }
    const_iterator end() const { return items().end(); }
    std::size_t size() const { return items().size(); }
    bool empty() const { return items().empty(); }
    const T& operator[](std::size_t i) const { return items()[i]; }
    const T& front() const { return items().front(); }
    const T& back() const { return items().back(); }

    // Changes this copy alone: the others keep what they shared.
    std::vector<T>& edit() {
        if (!m_items)
            m_items = std::make_shared<std::vector<T>>();
        else if (m_items.use_count() > 1)
            m_items = std::make_shared<std::vector<T>>(*m_items);
        return *m_items;
    }
    void push_back(T item) { edit().push_back(std::move(item)); }
    template <class... Args> T& emplace_back(Args&&... args) {
        return edit().emplace_back(std::forward<Args>(args)...);
    }
    void clear() { m_items.reset(); }

    friend bool operator==(const SharedList& a, const SharedList& b) { return a.items() == b.items(); }

  private:
    static const std::vector<T>& none() {
        static const std::vector<T> none;
        return none;
    }
    void assign(std::vector<T> items) {
        if (items.empty())
            m_items.reset();
        else
            m_items = std::make_shared<std::vector<T>>(std::move(items));
    }

    // Shared between copies; changed in place only where this copy is its one owner (edit()).
    std::shared_ptr<std::vector<T>> m_items;
};

} // namespace lanemap
