#pragma once
// lanemap-cli decode (cli_decode.cpp): the tcgen05 shared-memory descriptor and instruction descriptor, field
// by field, from a pasted value or built from named fields (docs/reference/tcgen05-descriptors.md).

#include <iosfwd>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace lanemap::cli {

struct DecodeRequest {
    std::string smemDesc;                // --smem-desc 0x...
    std::string smemFrom;                // --smem-desc-from start=...,swizzle=...
    std::string idesc;                   // --idesc 0x...
    std::string idescFrom;               // --idesc-from kind=...,a=...
    std::string kind;                    // --kind (with --idesc)
    std::optional<std::string> ctaGroup; // --cta-group 1|2, as typed
    bool ws = false, noWs = false;
    bool json = false;
};

// Registers `decode` on the app; returns the subcommand so the caller can ask whether it was parsed. Its
// options are added only when `withOptions` (the subcommand is named on the command line): see dispatch() in
// cli.cpp.
CLI::App* addDecodeCommand(CLI::App& app, DecodeRequest& request, bool withOptions);
// 0 when the value breaks no rule; 2 (and each rule on stderr) for a bad argument or a value the ISA forbids.
int cmdDecode(const DecodeRequest& request, std::ostream& out, std::ostream& err);

} // namespace lanemap::cli
