// The metadata check both methods share: see metadata_check.hpp.
#include "metadata_check.hpp"

#include "lanemap/sparse.hpp"

namespace lanemap::gpu::detail {

std::uint32_t locateWord(int lane, int bit) {
    std::uint32_t w = 0;
    for (int j = 0; j < 8; ++j) {
        const int id = lane * 8 + j;
        w |= (((id >> bit) & 1) ? 0xEu : 0x4u) << (4 * j);
    }
    return w;
}

void Locate::add(int bit, int k, int k0, int k1, std::string_view inconsistent) {
    if (k == k1 && k1 != k0) {
        id |= 1 << bit;
        return;
    }
    if (k == k0 || !odd.empty())
        return;
    odd = k == kInconsistentK
              ? std::string(inconsistent)
              : "multiplied k " + std::to_string(k) + ", neither its 0b0100 column (k " + std::to_string(k0) +
                    ") nor its 0b1110 column (k " + std::to_string(k1) + ")";
}

std::string nibbleName(int id) {
    const int lane = id / 8, j = id % 8;
    return "lane " + std::to_string(lane) + " bits [" + std::to_string(4 * j + 3) + ":" +
           std::to_string(4 * j) + "]";
}

std::string fieldName(const MetadataField& f) {
    return "lane " + std::to_string(f.thread) + " bits [" + std::to_string(f.bitHi) + ":" +
           std::to_string(f.bitLo) + "]";
}

std::string valueFailure(unsigned value, const std::string& who, int want, int k,
                         std::string_view inconsistent) {
    return "value " + sparse::binary(value) + ": " + who + " should multiply k " + std::to_string(want) +
           ", multiplied " +
           (k == kNoK             ? std::string("nothing")
            : k == kInconsistentK ? std::string(inconsistent)
                                  : "k " + std::to_string(k));
}

std::set<int> reportMetadata(const std::vector<MetadataField>& fields, const FieldFailures& locate,
                             const FieldFailures& value, const std::string& label,
                             std::vector<ProbeMismatch>& out) {
    auto summary = [](const std::vector<std::string>& texts) {
        std::string s = texts[0];
        if (texts.size() > 1)
            s += "; " + texts[1];
        if (texts.size() > 2)
            s += " (and " + std::to_string(texts.size() - 2) + " more)";
        return s;
    };
    std::set<int> failing;
    auto add = [&](int field, const char* experiment, std::string expected,
                   const std::vector<std::string>& texts) {
        const MetadataField& f = fields[static_cast<std::size_t>(field)];
        ProbeMismatch m;
        m.operand = Operand::Metadata;
        m.row = f.row;
        m.col = f.colFirst;
        m.thread = f.thread;
        m.experiment = experiment + label;
        m.expected = std::move(expected);
        m.observed = summary(texts);
        out.push_back(std::move(m));
        failing.insert(field);
    };
    for (const auto& [field, texts] : locate) {
        if (field < 0)
            continue;
        const MetadataField& f = fields[static_cast<std::size_t>(field)];
        add(field, "metadata location",
            "row " + std::to_string(f.row) + " cols " + std::to_string(f.colFirst) + ".." +
                std::to_string(f.colLast) + " indexed by " + fieldName(f),
            texts);
    }
    for (const auto& [field, texts] : value)
        add(field, "metadata value",
            "every valid value of " + fieldName(fields[static_cast<std::size_t>(field)]) +
                " places its elements as the storage rule says",
            texts);
    return failing;
}

} // namespace lanemap::gpu::detail
