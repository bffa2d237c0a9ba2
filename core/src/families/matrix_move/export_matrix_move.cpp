// Text and JSON sections of ldmatrix / stmatrix / movmatrix documents: the address map next to the data map
// (docs/reference/ldmatrix.md, docs/reference/json.md "matrix_move").

#include "lanemap/matrix_move.hpp"

#include "families/matrix_move/export_matrix_move.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <sstream>

namespace lanemap {

std::string matrixMoveTitle(const Instruction& in, int matrix) {
    const int per = matrixMoveOf(in)->registersPerMatrix;
    std::string s = "matrix " + std::to_string(matrix) + " (register";
    if (per == 1)
        return s + " " + std::to_string(matrix) + ")";
    return s + "s " + std::to_string(per * matrix) + "-" + std::to_string(per * matrix + per - 1) + ")";
}

std::string matrixMoveSummary(const Instruction& in, const FragmentLayout& op) {
    std::ostringstream s;
    s << op.name() << " (" << numOf(in) << " matri" << (numOf(in) == 1 ? "x" : "ces") << " of " << op.rows()
      << "x" << op.cols() << ", ." << toString(matrixMoveOf(in)->format)
      << "; row = memory row, col = element in the row): " << op.registers() << " x 32-bit register"
      << (op.registers() == 1 ? "" : "s") << " per thread, " << op.elementsPerRegister() << " elements each";
    return s.str();
}

std::string matrixMoveText(const Instruction& in) {
    if (!matrixMoveOf(in))
        return {};
    std::ostringstream out;
    const std::vector<AddressSlot> slots = addressMap(in);
    if (slots.empty()) {
        out << "address map: " << unusedAddressRule(in) << '\n';
        return out.str();
    }
    out << "address map: each address is the first byte of one " << kRowBytes
        << "-byte matrix row (16-byte aligned)\n";
    std::map<int, std::map<int, int>> byMatrix; // matrix -> row -> thread
    std::string unused;
    for (const AddressSlot& s : slots) {
        if (s.matrix < 0)
            unused += (unused.empty() ? "T" : ",T") + std::to_string(s.thread);
        else
            byMatrix[s.matrix][s.row] = s.thread;
    }
    for (const auto& [matrix, rows] : byMatrix) {
        out << "  matrix " << matrix << ":";
        for (const auto& [row, thread] : rows)
            out << "  r" << row << "<-T" << thread;
        out << '\n';
    }
    if (!unused.empty())
        out << "  threads " << unused << ": " << unusedAddressRule(in) << '\n';
    return out.str();
}

std::string matrixMoveJson(const Instruction& in) {
    if (!matrixMoveOf(in))
        return {};
    const MatrixMove& mv = *matrixMoveOf(in);
    nlohmann::ordered_json doc;
    doc["op"] = std::string(toString(mv.op));
    doc["num"] = numOf(in);
    doc["trans"] = mv.trans;
    doc["type"] = std::string(toString(mv.format));
    doc["matrix_rows"] = mv.rows;
    doc["row_elements"] = mv.cols;
    doc["row_bytes"] = kRowBytes;
    doc["element_bits_in_memory"] = elementBitsInMemory(mv.format);
    doc["registers_per_matrix"] = mv.registersPerMatrix;
    doc["unused_address_rule"] = std::string(unusedAddressRule(in));
    nlohmann::ordered_json map = nlohmann::ordered_json::array();
    for (const AddressSlot& s : addressMap(in)) {
        if (s.matrix < 0)
            map.push_back({{"thread", s.thread}, {"matrix", nullptr}, {"row", nullptr}});
        else
            map.push_back({{"thread", s.thread}, {"matrix", s.matrix}, {"row", s.row}});
    }
    doc["address_map"] = std::move(map);
    return doc.dump();
}

} // namespace lanemap
