// Block-scale factors and sparse metadata in Tensor Memory: tables and the arithmetic the header states.
#include "lanemap/tcgen05_tmem_tables.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>

namespace lanemap::tcgen05 {

namespace {
constexpr int kSubpartitionLanes = 32;
constexpr int kSubpartitions = 4;

std::string lower(std::string_view text) {
    std::string s(text);
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}
} // namespace

const std::vector<ScaleVecRule>& scaleVecRules() {
    // Table 57 (kinds per vector size); the IDs from the text of §9.7.16.10.7.2: 1X: "the byte offset", 2X:
    // "the half word offset" (0 or 2), 4X: "must be 0".
    static const std::vector<ScaleVecRule> rules{
        {ScaleVec::X1, 1, 32, {0, 1, 2, 3}, {Kind::MXF8F6F4}},
        {ScaleVec::X2, 2, 32, {0, 2}, {Kind::MXF4, Kind::MXF4NVF4}},
        {ScaleVec::X4, 4, 16, {0}, {Kind::MXF4NVF4}},
    };
    return rules;
}

std::string_view toString(ScaleVec vec) {
    switch (vec) {
    case ScaleVec::X1:
        return "scale_vec::1X";
    case ScaleVec::X2:
        return "scale_vec::2X";
    case ScaleVec::X4:
        return "scale_vec::4X";
    }
    return "?";
}

std::optional<ScaleVec> parseScaleVec(std::string_view text, Kind kind) {
    std::string s = lower(text);
    if (s.rfind("scale_vec::", 0) == 0)
        s = s.substr(11);
    if (s == "1x")
        return ScaleVec::X1;
    if (s == "2x")
        return ScaleVec::X2;
    if (s == "4x" || s == "block16")
        return ScaleVec::X4;
    if (s == "block32") // "alias for .scale_vec::1X or .scale_vec::2X based on .kind"
        return kind == Kind::MXF8F6F4 ? ScaleVec::X1 : ScaleVec::X2;
    return std::nullopt;
}

std::vector<TmemPlace> scaleFactorPlaces(Kind kind, ScaleVec vec, int scaleFactorId, ScaleOperand operand,
                                         int index, int factor) {
    const auto& rules = scaleVecRules();
    const auto rule =
        std::find_if(rules.begin(), rules.end(), [&](const ScaleVecRule& r) { return r.vec == vec; });
    const std::string what = "kind::" + std::string(toString(kind)) + " ." + std::string(toString(vec));
    if (std::find(rule->kinds.begin(), rule->kinds.end(), kind) == rule->kinds.end())
        throw std::invalid_argument(what +
                                    " is not a valid combination (Table 57): mxf8f6f4 takes 1X, mxf4 2X, "
                                    "mxf4nvf4 2X or 4X");
    if (std::find(rule->ids.begin(), rule->ids.end(), scaleFactorId) == rule->ids.end()) {
        std::string ids;
        for (const int id : rule->ids)
            ids += (ids.empty() ? "" : ", ") + std::to_string(id);
        throw std::invalid_argument(what + ": scale factor ID " + std::to_string(scaleFactorId) +
                                    " is invalid; valid: " + ids);
    }
    const int limit = operand == ScaleOperand::A ? 128 : 256;
    if (index < 0 || index >= limit)
        throw std::invalid_argument(std::string(operand == ScaleOperand::A ? "row m " : "column n ") +
                                    std::to_string(index) + " is outside 0.." + std::to_string(limit - 1));
    if (factor < 0 || factor >= rule->factorsPerRow)
        throw std::invalid_argument(what + ": factor " + std::to_string(factor) + " is outside 0.." +
                                    std::to_string(rule->factorsPerRow - 1));
    std::vector<TmemPlace> places;
    const int byte = scaleFactorId + factor;
    for (int s = 0; s < kSubpartitions; ++s)
        places.push_back(
            {index % kSubpartitionLanes + kSubpartitionLanes * s, index / kSubpartitionLanes, 8 * byte, 8});
    return places;
}

SparseGranularity sparseGranularity(Kind kind) {
    switch (kind) {
    case Kind::TF32:
        return {1, 2, 4};
    case Kind::MXF4:
    case Kind::MXF4NVF4:
        return {4, 8, 4};
    default:
        return {2, 4, 4};
    }
}

TmemPlace sparseMetadataPlace(Kind kind, int m, int group) {
    if (kind != Kind::F8F6F4 && kind != Kind::I8 && kind != Kind::MXF8F6F4)
        throw std::invalid_argument(
            "the metadata layout of kind::" + std::string(toString(kind)) +
            " in Tensor Memory is not covered yet (only f8f6f4, i8, mxf8f6f4 with M = 128)");
    if (m < 0 || m >= 128)
        throw std::invalid_argument("row m " + std::to_string(m) + " is outside 0..127 (M = 128)");
    // Sparse K = 64: 16 groups of four elements per row.
    if (group < 0 || group >= 16)
        throw std::invalid_argument("group " + std::to_string(group) +
                                    " is outside 0..15 (sparse K = 64, groups of 4)");
    return {m, group / 8, 4 * (group % 8), 4};
}

} // namespace lanemap::tcgen05
