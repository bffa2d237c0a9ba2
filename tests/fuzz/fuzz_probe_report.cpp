// Fuzz target: probe reports are read from disk (resources/probe/, user files); corrupt input must be
// rejected with a message, never crash, and accepted input must survive a write/read round trip unchanged.
#include "lanemap/probe_report.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    lanemap::ProbeReport report;
    std::string error;
    if (lanemap::parseProbeReport(text, report, error)) {
        const std::string again = lanemap::toJson(report);
        lanemap::ProbeReport back;
        if (!lanemap::parseProbeReport(again, back, error) || lanemap::toJson(back) != again)
            std::abort();
    } else if (error.empty()) {
        std::abort();
    }
    return 0;
}
