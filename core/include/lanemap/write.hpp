#pragma once
// The one file writer behind every export, the CLI, the probe report and the app's screenshots. What it
// promises (docs/guarantees.md):
//  - regular files (and new files) are replaced atomically: a temp file next to the target, flushed and
//    renamed over it, so a reader sees the old or the new document, never a part; on any failure the old file
//    is untouched and no temp file is left;
//  - an existing file keeps its permission bits (and owner where allowed); a new file gets 0666 less the
//  umask;
//  - a symlink is followed: the file it points to is replaced, the link stays a link; whether it may be
//    followed is the kernel's call (fs.protected_symlinks), as for the shell's `>`;
//  - a hard-linked file is replaced under the name written (the other names keep the old contents);
//  - /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are the open descriptors: written where they
//    stand (appending where the shell appends, streaming into a pipe), never replaced;
//  - FIFOs and character devices (/dev/null, a terminal) are written directly, as a stream;
//  - directories, sockets and block devices are refused with a message;
//  - past the file-size limit (ulimit -f) a write fails with "File too large" (SIGXFSZ is held meanwhile);
//  - temp files of writes cut short by SIGINT, SIGTERM, SIGHUP or SIGQUIT are removed
//    (installWriteSignalCleanup).

#include <optional>
#include <string>
#include <string_view>

namespace lanemap {

// Writes `contents` to `path` as described above. Returns empty on success, else a message naming the path
// and the reason.
std::string writeFile(const std::string& path, std::string_view contents);

// The open descriptor a write to `path` goes into (/dev/stdout: 1, /proc/self/fd/N: N, a link to one of
// them), or nullopt when `path` names a file. Lets a caller keep a status line out of a document it streams
// to standard output.
std::optional<int> openDescriptorOf(const std::string& path);

// Checks, without writing anything, that writeFile(path, ...) can succeed as far as can be known beforehand
// (folder exists and is writable, target is not a directory, ...). Returns empty or the reason.
std::string checkWritable(const std::string& path);

// Installs SIGINT/SIGTERM/SIGHUP/SIGQUIT handlers that remove the temp files of writes in flight and then let
// the signal take its default course (the exit status still says which signal). Handlers already set by the
// program, and signals it ignores, are left alone. Safe to call more than once.
void installWriteSignalCleanup();

} // namespace lanemap
