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

bool takes(const std::vector<Kind>& kinds, Kind kind) {
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

// Metadata placements, one per CUTLASS tmem_e_frg atom (M = 128 rows per CTA), read at the group level.
// 8- and 4-bit kinds: atom (128,64):(1,128) (4-bit: the same with K doubled): row m on lane m, its groups'
// nibbles in order along the lane, eight a column.
TmemPlace rowPerLane(int row, int group) {
    return {row, group / 8, 4 * (group % 8), 4};
}
// f16 (atom ((8,2,8),(16,2)):((1,2048,16),(128,8))) and tf32 (((8,2,8),(8,2)):((1,1024,16),(128,8))): eight
// rows on lanes 0-7 of each 16-lane block, the next eight rows in bits 31-16 of the same lanes, the second
// half of K (groups 4-7) eight lanes further down; one column per MMA.
TmemPlace halfRowsInterleaved(int row, int group) {
    return {row % 8 + 16 * (row / 16) + 8 * (group / 4), 0, 16 * ((row / 8) % 2) + 4 * (group % 4), 4};
}

constexpr std::string_view kSelectorFigure =
    "the figure draws which sub-columns each sparsity-selector value picks; lanemap places selector 0";
constexpr std::string_view kSelectorZero =
    "the selector must be 0 (i8, f8f6f4) or is taken as 0 (mxf8f6f4, mxf4, mxf4nvf4): all columns selected";
constexpr std::string_view kSelectorNotTranscribed =
    "ambiguity: the figure's sub-columns per selector value are not transcribed; drawn for selector 0";
constexpr std::string_view kNotTranscribed = "not drawn: the ISA gives this layout only as a figure, and "
                                             "CUTLASS has no atom for it (tmem_e_frg is M = "
                                             "128 only) to read it from; lanemap shows no guess";
} // namespace

const std::vector<ScaleVecRule>& scaleVecRules() {
    // §9.7.16.10.7.1 (kinds per vector size); the IDs from the text of §9.7.16.10.7.2.1-3: 1X: "the byte
    // offset", 2X: "the half word offset" (0 or 2), 4X: "must be 0".
    static const std::vector<ScaleVecRule> rules{
        {ScaleVec::X1,
         1,
         32,
         {0, 1, 2, 3},
         {Kind::MXF8F6F4},
         "the ID is the byte offset in the TMEM word",
         "Figure 231",
         "Figure 240",
         "9.7.16.10.7.2.1"},
        {ScaleVec::X2,
         2,
         32,
         {0, 2},
         {Kind::MXF4, Kind::MXF4NVF4},
         "the ID is the half word offset in the TMEM word",
         "Figure 232",
         "Figure 241",
         "9.7.16.10.7.2.2"},
        {ScaleVec::X4,
         4,
         16,
         {0},
         {Kind::MXF4NVF4},
         "the ID must be 0: the factors fill the whole word",
         "Figure 233",
         "Figure 242",
         "9.7.16.10.7.2.3"},
    };
    return rules;
}

const ScaleVecRule& ruleOf(ScaleVec vec) {
    const auto& rules = scaleVecRules();
    return *std::find_if(rules.begin(), rules.end(), [&](const ScaleVecRule& r) { return r.vec == vec; });
}

std::vector<ScaleVec> scaleVecsOf(Kind kind) {
    std::vector<ScaleVec> out;
    for (const ScaleVecRule& r : scaleVecRules())
        if (takes(r.kinds, kind))
            out.push_back(r.vec);
    return out;
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

std::optional<ScaleVec> fromForm(lanemap::ScaleVec typed) {
    switch (typed) {
    case lanemap::ScaleVec::X1:
        return ScaleVec::X1;
    case lanemap::ScaleVec::X2:
        return ScaleVec::X2;
    case lanemap::ScaleVec::X4:
        return ScaleVec::X4;
    default:
        return std::nullopt;
    }
}

lanemap::ScaleVec toForm(ScaleVec vec) {
    return vec == ScaleVec::X1   ? lanemap::ScaleVec::X1
           : vec == ScaleVec::X2 ? lanemap::ScaleVec::X2
                                 : lanemap::ScaleVec::X4;
}

std::optional<BlockScale> defaultBlockScale(Kind kind) {
    const std::vector<ScaleVec> vecs = scaleVecsOf(kind);
    if (vecs.empty())
        return std::nullopt;
    return BlockScale{vecs.back(), 0, 0}; // mxf4nvf4: 4X, the size its catalog PTX string names
}

std::string describeIds(const ScaleVecRule& rule) {
    std::string ids;
    for (const int id : rule.ids)
        ids += (ids.empty() ? "" : ", ") + std::to_string(id);
    return ids;
}

std::string validate(Kind kind, const BlockScale& scale) {
    const std::string what = "kind::" + std::string(toString(kind));
    const std::vector<ScaleVec> vecs = scaleVecsOf(kind);
    if (vecs.empty())
        return what + " is not block-scaled: it takes no scale vector size or scale factor ID";
    const ScaleVecRule& rule = ruleOf(scale.vec);
    if (!takes(rule.kinds, kind)) {
        std::string valid;
        for (const ScaleVec v : vecs)
            valid += (valid.empty() ? "" : ", ") + std::string(toString(v));
        return what + " does not take ." + std::string(toString(scale.vec)) +
               " (§9.7.16.10.7.1); valid: " + valid;
    }
    for (const auto& [name, id] : {std::pair{"SFA ID", scale.sfaId}, std::pair{"SFB ID", scale.sfbId}})
        if (std::find(rule.ids.begin(), rule.ids.end(), id) == rule.ids.end())
            return what + " ." + std::string(toString(scale.vec)) + ": " + name + " " + std::to_string(id) +
                   " is invalid (" + std::string(rule.idRule) + "); valid: " + describeIds(rule);
    return {};
}

std::vector<TmemPlace> scaleFactorPlaces(Kind kind, ScaleVec vec, int scaleFactorId, Operand operand,
                                         int index, int factor) {
    const ScaleVecRule& rule = ruleOf(vec);
    const std::string what = "kind::" + std::string(toString(kind)) + " ." + std::string(toString(vec));
    if (!takes(rule.kinds, kind))
        throw std::invalid_argument(
            what + " is not a valid combination (§9.7.16.10.7.1): mxf8f6f4 takes 1X, mxf4 2X, "
                   "mxf4nvf4 2X or 4X");
    if (std::find(rule.ids.begin(), rule.ids.end(), scaleFactorId) == rule.ids.end())
        throw std::invalid_argument(what + ": scale factor ID " + std::to_string(scaleFactorId) +
                                    " is invalid; valid: " + describeIds(rule));
    if (operand != Operand::A && operand != Operand::B)
        throw std::invalid_argument("scale factors belong to A or B, not " + std::string(toString(operand)));
    const int limit = operand == Operand::A ? 128 : 256;
    if (index < 0 || index >= limit)
        throw std::invalid_argument(std::string(operand == Operand::A ? "row m " : "column n ") +
                                    std::to_string(index) + " is outside 0.." + std::to_string(limit - 1));
    if (factor < 0 || factor >= rule.factorsPerRow)
        throw std::invalid_argument(what + ": factor " + std::to_string(factor) + " is outside 0.." +
                                    std::to_string(rule.factorsPerRow - 1));
    std::vector<TmemPlace> places;
    const int byte = scaleFactorId + factor;
    for (int s = 0; s < kSubpartitions; ++s)
        places.push_back(
            {index % kSubpartitionLanes + kSubpartitionLanes * s, index / kSubpartitionLanes, 8 * byte, 8});
    return places;
}

std::string scaleFactorFinding(Operand operand, int m, int ctaGroup) {
    if (operand == Operand::B && ctaGroup == 2 && m == 128)
        return "B's scale factors of cta_group::2 with M = 128 (the 2x2 datapath, layout B/C) are not drawn: "
               "CUTLASS offers two allocations for them (tmem_sf_frg ScaleFactorDuplicated4by1 and "
               "ScaleFactorDuplicated2by2) and the ISA's Figures 240-242 do not say which one this datapath "
               "reads";
    return {};
}

int scaleFactorRows(Operand operand, int m, int n, int ctaGroup) {
    return operand == Operand::A ? std::min(m / ctaGroup, 128) : n;
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

int metadataGroupsPerRow(Kind kind) {
    // K of the sparse MMA (Table 39) over the group: f16 32/4, tf32 16/2, 8-bit 64/4, 4-bit 128/8.
    switch (kind) {
    case Kind::F16:
    case Kind::TF32:
        return 8;
    default:
        return 16;
    }
}

const std::vector<MetadataLayoutRecord>& metadataLayoutRecords() {
    static const std::vector<Kind> kNarrow{Kind::F8F6F4, Kind::MXF8F6F4, Kind::I8, Kind::MXF4,
                                           Kind::MXF4NVF4};
    static const std::vector<MetadataLayoutRecord> records{
        {{Kind::F16}, {64}, "9.7.16.10.8.4.1", "Figure 262", kSelectorFigure, "", kNotTranscribed, nullptr},
        {{Kind::F16},
         {128, 256},
         "9.7.16.10.8.4.2",
         "Figure 263",
         kSelectorFigure,
         "tmem_e_frg 16-bit atom ((8,2,8),(16,2)):((1,2048,16),(128,8))",
         kSelectorNotTranscribed,
         halfRowsInterleaved},
        {{Kind::TF32}, {64}, "9.7.16.10.8.4.3", "Figure 264", kSelectorFigure, "", kNotTranscribed, nullptr},
        {{Kind::TF32},
         {128, 256},
         "9.7.16.10.8.4.4",
         "Figure 265",
         kSelectorFigure,
         "tmem_e_frg 32-bit atom ((8,2,8),(8,2)):((1,1024,16),(128,8))",
         kSelectorNotTranscribed,
         halfRowsInterleaved},
        {kNarrow, {64}, "9.7.16.10.8.4.5", "Figure 266", kSelectorZero, "", kNotTranscribed, nullptr},
        {kNarrow,
         {128, 256},
         "9.7.16.10.8.4.6",
         "Figure 267",
         kSelectorZero,
         "tmem_e_frg 8-bit atom (128,64):(1,128), 4-bit (128,128):(1,128)",
         "",
         rowPerLane},
    };
    return records;
}

const MetadataLayoutRecord* metadataLayoutOf(Kind kind, int m, int ctaGroup, std::string* why) {
    auto fail = [&](std::string text) -> const MetadataLayoutRecord* {
        if (why)
            *why = std::move(text);
        return nullptr;
    };
    if (ctaGroup == 2 && m == 128)
        return fail(
            "the sparse metadata of cta_group::2 with M = 128 (layout C: 64 rows per CTA, half the "
            "datapath) is in none of the ISA's figures (they name M = 64 and M = 128 / 256): not drawn");
    for (const MetadataLayoutRecord& r : metadataLayoutRecords())
        if (takes(r.kinds, kind) && std::find(r.ms.begin(), r.ms.end(), m) != r.ms.end())
            return &r;
    return fail("the ISA has no sparse-metadata figure for kind::" + std::string(toString(kind)) +
                " with M = " + std::to_string(m) +
                " (§9.7.16.10.8.4 draws M = 64 and M = 128 / 256): not drawn");
}

TmemPlace sparseMetadataPlace(Kind kind, int mmaM, int ctaGroup, int row, int group) {
    std::string why;
    const MetadataLayoutRecord* rec = metadataLayoutOf(kind, mmaM, ctaGroup, &why);
    if (!rec)
        throw std::invalid_argument(why);
    if (!rec->place)
        throw std::invalid_argument("kind::" + std::string(toString(kind)) + " M = " + std::to_string(mmaM) +
                                    " (" + std::string(rec->figure) + "): " + std::string(rec->finding));
    const int rows = mmaM / ctaGroup;
    if (row < 0 || row >= rows)
        throw std::invalid_argument("row m " + std::to_string(row) + " is outside 0.." +
                                    std::to_string(rows - 1) + " (the rows of one CTA)");
    const int groups = metadataGroupsPerRow(kind);
    if (group < 0 || group >= groups)
        throw std::invalid_argument("group " + std::to_string(group) + " is outside 0.." +
                                    std::to_string(groups - 1) + " (kind::" + std::string(toString(kind)) +
                                    ": " + std::to_string(groups) + " groups of " +
                                    std::to_string(sparseGranularity(kind).group) + " a row)");
    return rec->place(row, group);
}

TmemPlace sparseMetadataPlace(Kind kind, int row, int group) {
    return sparseMetadataPlace(kind, 128, 1, row, group);
}

} // namespace lanemap::tcgen05
