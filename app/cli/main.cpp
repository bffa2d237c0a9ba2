#include "cli.hpp"

#include "lanemap/write.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <unistd.h>

int main(int argc, char** argv) {
    // A closed stdin/stdout/stderr would let the next file we open take its number (and the output land in a
    // temp file): hold them with /dev/null, and treat a closed stdout as an output error.
    const bool stdoutClosed = ::fcntl(STDOUT_FILENO, F_GETFD) == -1;
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd)
        if (::fcntl(fd, F_GETFD) == -1 && ::open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY) != fd)
            return 2;
    if (stdoutClosed)
        std::cout.setstate(std::ios::badbit);
    lanemap::installWriteSignalCleanup();

    std::vector<std::string> args(argv + 1, argv + argc);
    int code = lanemap::cli::run(args, std::cout, std::cerr);
    // run() has said so when std::cout failed (one failure, one line); this catches what stdio still held.
    const bool reported = !std::cout;
    if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && !reported) {
        std::cerr << "lanemap-cli: the output could not be written: " << std::strerror(errno) << '\n';
        if (code == lanemap::cli::Ok)
            code = lanemap::cli::Usage;
    }
    return code;
}
