// Fuzz target: the spec parser must never crash, and whatever it accepts must round-trip.
#include "lanemap/catalog.hpp"
#include "lanemap/spec.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const lanemap::Catalog& catalog = lanemap::Catalog::instance();
    const lanemap::ParsedSpec parsed = lanemap::parseSpec(text, catalog);
    if (parsed) {
        // Accepted input names a real variant whose canonical spec and PTX parse back to it.
        if (lanemap::parseSpec(parsed.variant->spec, catalog).variant != parsed.variant) std::abort();
        if (lanemap::parseSpec(parsed.variant->ptx, catalog).variant != parsed.variant) std::abort();
    } else if (parsed.error.empty()) {
        std::abort(); // a rejection always says why
    }
    return 0;
}
