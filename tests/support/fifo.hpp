#pragma once
// Test helper shared by the writer and CLI tests.

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <string>

namespace lanemap::testing {

// Reads a FIFO until EOF without hanging when nobody ever writes to it (a writer that replaced the FIFO
// instead of opening it): non-blocking open, then at most 20 s of waiting for a writer.
inline std::string readFifo(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return "<cannot open>";
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 20000) <= 0) {
        ::close(fd);
        return "<no writer>";
    }
    ::fcntl(fd, F_SETFL, 0);
    std::string text;
    char buffer[65536];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
        text.append(buffer, static_cast<std::size_t>(n));
    ::close(fd);
    return text;
}

} // namespace lanemap::testing
