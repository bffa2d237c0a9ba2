#pragma once
// Layouts and metadata tables are pure functions of a few facts, and many variants share them (every wgmma
// type of one N has the same D; every N of one sparse row has the same metadata). A SharedCache builds each
// distinct value once and hands out shared, immutable copies while anyone holds one. Internal to core.
//
// Every cache registers itself, so FragmentLayout::clearBuildCache() empties all of them and a benchmark
// measures building the catalog from scratch, not a lookup.
//
// A cache whose values are copied out (a FragmentLayout, not its shared data) cannot tell when nobody holds
// one, so `kKeep` keeps its values until the caches are cleared, as the catalog keeps what it built.

#include <map>
#include <memory>
#include <mutex>
#include <type_traits>

namespace lanemap::detail {

void registerCache(void (*clear)(void* cache), void* cache);
void clearAllCaches();

template <class Key, class Value, bool kKeep = false> class SharedCache {
  public:
    SharedCache() {
        registerCache([](void* self) { static_cast<SharedCache*>(self)->clear(); }, this);
    }
    SharedCache(const SharedCache&) = delete;
    SharedCache& operator=(const SharedCache&) = delete;

    // The value for `key`, built by `make()` (returning Value or shared_ptr<const Value>) when nobody holds
    // one.
    template <class Make> std::shared_ptr<const Value> get(const Key& key, Make&& make) {
        {
            std::lock_guard lock(m_mutex);
            auto it = m_values.find(key);
            if (it != m_values.end()) {
                if constexpr (kKeep)
                    return it->second;
                else if (auto value = it->second.lock())
                    return value;
            }
        }
        // Built outside the lock: a build may itself use other caches (or this one, for another key).
        std::shared_ptr<const Value> value = wrap(make());
        std::lock_guard lock(m_mutex);
        m_values[key] = value;
        return value;
    }

    void clear() {
        std::lock_guard lock(m_mutex);
        m_values.clear();
    }

  private:
    static std::shared_ptr<const Value> wrap(std::shared_ptr<const Value> v) { return v; }
    static std::shared_ptr<const Value> wrap(Value&& v) {
        return std::make_shared<const Value>(std::move(v));
    }

    std::mutex m_mutex;
    using Held = std::conditional_t<kKeep, std::shared_ptr<const Value>, std::weak_ptr<const Value>>;
    std::map<Key, Held> m_values;
};

} // namespace lanemap::detail
