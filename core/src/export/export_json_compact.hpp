#pragma once
// The compact JSON form's element columns (docs/reference/json.md#compact-form), shared by the writer
// (straight from the model) and the converters (lanemap/json_compact.hpp), so both apply the one column rule.
// Internal.

#include "lanemap/model.hpp"
#include "lanemap/smem.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lanemap::detail {

// The JSON document of an instruction (export_json.cpp), full (toJson) or compact (toCompactJson).
std::string jsonDocument(const Instruction& instruction, const smem::Choice& choice, int indent,
                         bool compact);

// How a column of integers is written: one value for every element, the outer index (i / k) or the inner
// index (i % k) of a nested loop, or the list itself.
struct IntColumnForm {
    enum Kind { Constant, Major, Minor, List } kind = List;
    long long value = 0; // Constant: the value; Major, Minor: k
};
IntColumnForm classify(const std::vector<long long>& values);

// Writes `"elements": {"count": N, "columns": {...}}` column by column, in the order the full form's element
// objects list their keys.
class ColumnsWriter {
  public:
    ColumnsWriter(std::string& out, std::size_t count, std::string_view indent);
    void ints(std::string_view key, const std::vector<long long>& values);
    void pairs(std::string_view key, const std::vector<long long>& first, const std::vector<long long>& last);
    void strings(std::string_view key, const std::vector<std::string_view>& values);
    void finish();

  private:
    void key(std::string_view name);
    std::string& m_out;
    std::string m_indent;
    bool m_first = true;
};

} // namespace lanemap::detail
