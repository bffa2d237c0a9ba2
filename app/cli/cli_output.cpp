#include "cli_output.hpp"

#include "cli.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/write.hpp"

#include <filesystem>
#include <ostream>
#include <system_error>
#include <unistd.h>

namespace lanemap::cli {

std::string exportTarget(const std::string& path, std::string_view spec, std::string_view extension,
                         bool gzip) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec))
        return path;
    std::string name(spec);
    name += '.';
    name += extension;
    if (gzip)
        name += ".gz";
    return (std::filesystem::path(path) / name).string();
}

int writeExport(const std::string& path, std::string_view spec, std::string_view extension, bool gzip,
                const std::string& doc, std::ostream& out, std::ostream& err) {
    const std::string target = exportTarget(path, spec, extension, gzip);
    if (const std::string failure = writeFile(target, doc); !failure.empty()) {
        err << "lanemap-cli: " << failure << '\n';
        return Usage;
    }
    // Into standard output (-o /dev/stdout) the document is the output, as with -o -: no status line in it.
    if (openDescriptorOf(target) != STDOUT_FILENO)
        out << "wrote 1 file to " << excerpt(target, 200) << '\n';
    return Ok;
}

} // namespace lanemap::cli
