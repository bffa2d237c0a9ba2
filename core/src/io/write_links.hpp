#pragma once
// How the file writer (write.cpp) follows a link, reached by its tests (tests/core/test_write.cpp).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lanemap {

// The names a write to a path passes through: the path, then each link's target; the last is the node
// written (as the kernel reached it, where the chain ends in an existing node). A name of an open descriptor
// (/dev/stdout, /proc/self/fd/N) ends the chain unfollowed.
struct LinkChain {
    std::vector<std::filesystem::path> names;
};

// The chain of `path`, or nullopt with `reason` when a link may not be followed: a loop, a link the kernel
// refuses to follow, or one fs.protected_symlinks refuses (refusedLink).
std::optional<LinkChain> followLinks(const std::string& path, std::string& reason);

// Why fs.protected_symlinks forbids following `link` (the kernel's rule: in a sticky world-writable folder,
// only a link owned by the follower or by the folder's owner), or empty. Checked for links whose target does
// not exist yet: the kernel would decide only when the file is created.
std::string refusedLink(const std::filesystem::path& link);

// Tests: fs.protected_symlinks taken as on or off, or read from /proc/sys again (nullopt).
void setProtectedSymlinksForTesting(std::optional<bool> on);

} // namespace lanemap
