#pragma once
// lanemap-cli as a library so tests run it in-process. Exit codes (docs/guarantees.md):
// 0 ok, 1 mismatch found, 2 usage/input error or output not written, 3 GPU unavailable.

#include <iosfwd>
#include <string>
#include <vector>

namespace lanemap::cli {

enum ExitCode : int { Ok = 0, Mismatch = 1, Usage = 2, GpuUnavailable = 3 };

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace lanemap::cli
