#pragma once
// Limits a probe or discovery report's JSON must keep before it is parsed into a document: keys per object
// and nesting depth, far above what any report has (probe reports: 8 keys, depth 4; discovery reports: 10
// keys, depth 6). nlohmann's ordered_json looks a new key up among the object's keys one by one, so one
// object of N keys costs N^2/2 comparisons: a 0.9 MB object of 80,000 keys took 9 s, a 32 MiB one hours. The
// check is one pass of nlohmann's SAX parser, which builds nothing.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap::json_limits {

inline constexpr std::size_t kMaxKeys = 64;  // in one object
inline constexpr std::size_t kMaxDepth = 32; // objects and arrays nested

namespace detail {
struct Counter : nlohmann::json_sax<nlohmann::json> {
    std::vector<std::size_t> keys; // per open container: keys seen (arrays: unused)
    std::string error;

    bool open() {
        keys.push_back(0);
        if (keys.size() <= kMaxDepth)
            return true;
        error = "nested deeper than " + std::to_string(kMaxDepth) + " levels (a report nests at most 6)";
        return false;
    }
    bool start_object(std::size_t) override { return open(); }
    bool start_array(std::size_t) override { return open(); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool close() {
        keys.pop_back();
        return true;
    }
    bool key(string_t&) override {
        if (++keys.back() <= kMaxKeys)
            return true;
        error = "an object with more than " + std::to_string(kMaxKeys) + " keys (a report's have at most 10)";
        return false;
    }
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    // Not JSON: the document parser that follows says where and why.
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false;
    }
};
} // namespace detail

// Empty when `text` keeps the limits (or is not JSON at all: the parser that follows reports that), else
// which limit it breaks.
inline std::string check(std::string_view text) {
    detail::Counter counter;
    nlohmann::json::sax_parse(text, &counter);
    return counter.error;
}

} // namespace lanemap::json_limits
