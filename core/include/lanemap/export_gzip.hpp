#pragma once
// gzip (RFC 1952) of any export (`lanemap-cli export ... --gzip`): zlib at its default level, deterministic
// bytes (no file name, no time stamp in the header), so the same document gives the same .gz file.

#include <string>
#include <string_view>

namespace lanemap {

std::string gzipBytes(std::string_view data);
// The inverse, for readers and tests; returns false and sets `error` on data that is not gzip.
bool gunzipBytes(std::string_view data, std::string& out, std::string& error);

} // namespace lanemap
