#pragma once
// lanemap-cli banks (cli_banks.cpp).

#include <iosfwd>
#include <string>

namespace lanemap::cli {

struct BanksRequest {
    std::string spec;
    std::string smem;  // --smem placement text
    std::string feeds; // --feeds SPEC:OPERAND
    bool search = false;
    bool json = false;
    std::string format; // --format text|json|svg (empty: text, or json with --json)
    std::string output; // -o PATH ('-' or empty: stdout)
};

int cmdBanks(const BanksRequest& request, std::ostream& out, std::ostream& err);

} // namespace lanemap::cli
