#pragma once
// Runs lanemap-cli in-process for the CLI tests: exit code, stdout and stderr of one invocation.

#include "cli.hpp"

#include <filesystem>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace lanemap::test {

struct CliResult {
    int code;
    std::string out, err;
};

inline CliResult runCli(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int code = lanemap::cli::run(args, out, err);
    return {code, out.str(), err.str()};
}

// A fresh (removed) folder under the temp directory, unique to this process and `name`.
inline std::filesystem::path freshTempDir(const std::string& name) {
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("lanemap-cli-" + std::to_string(::getpid()) + "-" + name);
    std::filesystem::remove_all(dir);
    return dir;
}

} // namespace lanemap::test
