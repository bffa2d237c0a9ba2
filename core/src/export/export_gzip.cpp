#include "lanemap/export_gzip.hpp"

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <new>

namespace lanemap {

std::string gzipBytes(std::string_view data) {
    z_stream z{};
    // windowBits 15 + 16: a gzip wrapper. deflateInit2 leaves the header's time stamp 0 and no file name, so
    // the bytes depend on the data alone.
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::bad_alloc();
    std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
    std::size_t in = 0;
    int status = Z_OK;
    // deflate takes at most uInt bytes at a time: feed it in slices (documents stay far below 4 GB, but the
    // loop costs nothing).
    while (status == Z_OK) {
        const std::size_t slice =
            std::min<std::size_t>(data.size() - in, std::numeric_limits<uInt>::max() / 2);
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + in));
        z.avail_in = static_cast<uInt>(slice);
        if (out.size() - z.total_out < 64)
            out.resize(out.size() * 2);
        z.next_out = reinterpret_cast<Bytef*>(out.data() + z.total_out);
        z.avail_out = static_cast<uInt>(
            std::min<std::size_t>(out.size() - z.total_out, std::numeric_limits<uInt>::max() / 2));
        const bool last = in + slice == data.size();
        status = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
        in += slice - z.avail_in;
    }
    out.resize(z.total_out);
    deflateEnd(&z);
    if (status != Z_STREAM_END)
        throw std::bad_alloc(); // deflate fails only when it cannot allocate
    return out;
}

bool gunzipBytes(std::string_view data, std::string& out, std::string& error) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
        error = "zlib could not start";
        return false;
    }
    out.clear();
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    char buf[1 << 16];
    int status = Z_OK;
    while (status == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buf);
        z.avail_out = sizeof buf;
        status = inflate(&z, Z_NO_FLUSH);
        out.append(buf, sizeof buf - z.avail_out);
        if (status == Z_BUF_ERROR && z.avail_in == 0)
            break;
    }
    const std::string why = z.msg ? z.msg : "incomplete stream";
    inflateEnd(&z);
    if (status != Z_STREAM_END) {
        error = "not gzip data, or cut short (zlib: " + why + ")";
        return false;
    }
    return true;
}

} // namespace lanemap
