#pragma once
// Recently built diagrams, most recent first. Diagrams are immutable, so going back to a recent instruction
// or coloring is instant (the largest wgmma accumulators take tens of milliseconds to build). Knows nothing
// of widgets: tested on its own.

#include "lanemap/diagram.hpp"

#include <cstddef>
#include <list>
#include <memory>

namespace lanemap::gui {

class DiagramCache {
  public:
    explicit DiagramCache(std::size_t capacity = 32) : m_capacity(capacity) {}

    // The diagram of `instance` drawn with `options`, built on a miss. The cache keeps the instance while it
    // keeps a diagram of it, so another instance never takes its address. Throws what buildDiagram throws.
    std::shared_ptr<const Diagram> get(const std::shared_ptr<const Instruction>& instance,
                                       const DiagramOptions& options);
    // The same for an instruction the caller keeps alive (a catalog entry).
    std::shared_ptr<const Diagram> get(const Instruction& instruction, const DiagramOptions& options);
    // Drops every diagram of `instruction`.
    void forget(const Instruction& instruction);

    std::size_t size() const { return m_entries.size(); }
    std::size_t builds() const { return m_builds; } // diagrams built so far (misses)

  private:
    struct Entry {
        std::shared_ptr<const Instruction> instance;
        DiagramOptions options; // compared as a value
        std::shared_ptr<const Diagram> diagram;
    };
    std::size_t m_capacity;
    std::size_t m_builds = 0;
    std::list<Entry> m_entries;
};

} // namespace lanemap::gui
