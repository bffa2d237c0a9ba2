#pragma once
// lanemap-cli show / export of a tcgen05.mma form, alone or composed with a tcgen05.ld (--ld) or tcgen05.st
// (--st) (cli_tcgen05.cpp; docs/reference/tcgen05.md).

#include <iosfwd>
#include <string>

namespace lanemap::cli {

// True when `spec` names a tcgen05.mma form (its view is not an instruction's register grid).
bool isTcgen05Mma(const std::string& spec);

// `format`: "txt" or "json"; `output` empty or "-": stdout. Exit 2 with a message naming what is valid for a
// bad spec, access or format, or an --ld/--st given with anything but a tcgen05.mma spec.
int cmdTcgen05(const std::string& spec, const std::string& ld, const std::string& st,
               const std::string& format, const std::string& output, std::ostream& out, std::ostream& err);

} // namespace lanemap::cli
