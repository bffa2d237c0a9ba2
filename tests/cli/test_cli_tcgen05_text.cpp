// `lanemap-cli show` of a tcgen05.mma form writes the scale factors (block-scaled kinds, every vector size
// and SFA / SFB ID) and the sparse metadata in its text, as the GUI, the SVG and the JSON show them: each
// text cell must name the same TMEM lanes, column and bits as the JSON's place for that element, for every
// row, factor and group; what no table places is a finding line, as in the JSON.
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace test_cli_tcgen05_text {

using lanemap::test::runCli;

namespace {

// One text cell: the lanes of the element's copies, its column and its lowest bit.
struct Cell {
    std::vector<int> lanes;
    int column = 0, lowBit = 0;
    bool operator==(const Cell&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Cell& c) {
    os << "L";
    for (int lane : c.lanes)
        os << lane << ' ';
    return os << "C" << c.column << " bit " << c.lowBit;
}

// The cells of the text table headed "<label> (RxC)", row by row: "L0,32,64,96 C0[23..16]".
std::vector<std::vector<Cell>> textTable(const std::string& text, const std::string& label) {
    std::istringstream lines(text);
    std::string line;
    const std::regex head(label + R"( \((\d+)x(\d+)\))");
    std::smatch m;
    while (std::getline(lines, line))
        if (std::regex_match(line, m, head))
            break;
    std::vector<std::vector<Cell>> rows;
    if (m.empty())
        return rows;
    const int count = std::stoi(m[1]);
    std::getline(lines, line); // the column numbers
    const std::regex place(R"(L([\d,]+) C(\d+)\[(\d+)\.\.(\d+)\])");
    for (int r = 0; r < count && std::getline(lines, line); ++r) {
        std::vector<Cell> row;
        for (auto it = std::sregex_iterator(line.begin(), line.end(), place); it != std::sregex_iterator();
             ++it) {
            Cell c;
            std::istringstream lanes((*it)[1].str());
            for (std::string lane; std::getline(lanes, lane, ',');)
                c.lanes.push_back(std::stoi(lane));
            c.column = std::stoi((*it)[2].str());
            c.lowBit = std::stoi((*it)[4].str());
            row.push_back(std::move(c));
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

// The JSON's places of one table ("scale_factors"/"A", "metadata") as text cells: per row, per factor or
// group, the copies' lanes (one column and bit range for all copies).
std::vector<std::vector<Cell>> jsonTable(const nlohmann::json& rows, bool copies) {
    std::vector<std::vector<Cell>> out;
    for (const auto& row : rows) {
        std::vector<Cell> cells;
        for (const auto& entry : row) {
            Cell c;
            const auto& first = copies ? entry[0] : entry;
            c.column = first[1];
            c.lowBit = first[2];
            if (copies)
                for (const auto& copy : entry) {
                    EXPECT_EQ(copy[1], c.column) << "a copy in another column: the text would split it";
                    c.lanes.push_back(copy[0]);
                }
            else
                c.lanes.push_back(first[0]);
            cells.push_back(std::move(c));
        }
        out.push_back(std::move(cells));
    }
    return out;
}

struct Form {
    std::string spec;
    std::vector<std::string> options;
};

// show (text) and export --format json of the same form and options.
std::pair<std::string, nlohmann::json> textAndJson(const Form& f) {
    std::vector<std::string> show{"show", f.spec};
    show.insert(show.end(), f.options.begin(), f.options.end());
    const auto text = runCli(show);
    EXPECT_EQ(text.code, 0) << f.spec << ": " << text.err;
    std::vector<std::string> exp{"export", f.spec, "--format", "json", "-o", "-"};
    exp.insert(exp.end(), f.options.begin(), f.options.end());
    const auto json = runCli(exp);
    EXPECT_EQ(json.code, 0) << f.spec << ": " << json.err;
    return {text.out, json.code == 0 ? nlohmann::json::parse(json.out) : nlohmann::json()};
}

TEST(CliTcgen05Text, ScaleFactorsForEveryVectorSizeAndIdMatchTheJson) {
    // Every kind x vector size x SFA ID (SFB takes another ID, so a swapped ID shows), at both CTA groups
    // where B is placed (cta_group::2 M = 256).
    struct Choice {
        std::string kind, vec;
        std::vector<int> ids;
    };
    const std::vector<Choice> choices{{"mxf8f6f4", "1X", {0, 1, 2, 3}},
                                      {"mxf4", "2X", {0, 2}},
                                      {"mxf4nvf4", "2X", {0, 2}},
                                      {"mxf4nvf4", "4X", {0}}};
    for (const Choice& c : choices)
        for (const std::string form : {".m128n32", ""})
            for (std::size_t i = 0; i < c.ids.size(); ++i) {
                const std::string spec = form.empty()
                                             ? "tcgen05.mma.cta_group::2.kind::" + c.kind + ".m256n32"
                                             : "tcgen05.mma.cta_group::1.kind::" + c.kind + form;
                const int id = c.ids[i], sfbId = c.ids[(i + 1) % c.ids.size()];
                const Form f{spec,
                             {"--scale-vec", c.vec, "--sfa-id", std::to_string(id), "--sfb-id",
                              std::to_string(sfbId)}};
                SCOPED_TRACE(spec + " " + c.vec + " SFA ID " + std::to_string(id));
                const auto [text, j] = textAndJson(f);
                ASSERT_TRUE(j.contains("scale_factors"));
                const auto sfa = textTable(text, "SFA");
                const auto sfb = textTable(text, "SFB");
                ASSERT_FALSE(sfa.empty()) << "no SFA table in the text:\n" << text.substr(0, 2000);
                ASSERT_FALSE(sfb.empty()) << "no SFB table in the text";
                EXPECT_EQ(sfa, jsonTable(j["scale_factors"]["A"]["rows"], true));
                EXPECT_EQ(sfb, jsonTable(j["scale_factors"]["B"]["rows"], true));
                // The header names the instruction whose factors these are.
                EXPECT_NE(text.find("block scale: .scale_vec::" + c.vec + ", SFA ID " + std::to_string(id) +
                                    ", SFB ID " + std::to_string(sfbId)),
                          std::string::npos)
                    << text.substr(0, 600);
            }
}

TEST(CliTcgen05Text, TheChosenVectorSizeIsTheOneInThePtx) {
    const std::string spec = "tcgen05.mma.cta_group::1.kind::mxf4nvf4.m128n16";
    const auto two = runCli({"show", spec, "--scale-vec", "2X"});
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_NE(two.out.find(".block_scale.scale_vec::2X;"), std::string::npos) << two.out.substr(0, 300);
    EXPECT_EQ(two.out.find("scale_vec::4X"), std::string::npos) << "the tables are 2X's";
    const auto json = runCli({"export", spec, "--scale-vec", "2X", "--format", "json", "-o", "-"});
    ASSERT_EQ(json.code, 0) << json.err;
    EXPECT_EQ(nlohmann::json::parse(json.out)["ptx"],
              "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::2X");
    const auto def = runCli({"show", spec});
    ASSERT_EQ(def.code, 0) << def.err;
    EXPECT_NE(def.out.find(".block_scale.scale_vec::4X;"), std::string::npos);
    EXPECT_NE(def.out.find("block scale: .scale_vec::4X, SFA ID 0, SFB ID 0 (the default"),
              std::string::npos);
}

TEST(CliTcgen05Text, AScaleFactorSitsWhereTheIsaFigurePutsIt) {
    // Figure 232 (2X, ID 2): row 5's two factors in bytes 2 and 3 of column 0, lane 5 and its copies in the
    // other three subpartitions.
    const auto r = runCli({"show", "tcgen05.mma.cta_group::1.kind::mxf4.m128n16", "--sfa-id", "2"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto sfa = textTable(r.out, "SFA");
    ASSERT_EQ(sfa.size(), 128u);
    ASSERT_EQ(sfa[5].size(), 2u);
    EXPECT_EQ(sfa[5][0], (Cell{{5, 37, 69, 101}, 0, 16}));
    EXPECT_EQ(sfa[5][1], (Cell{{5, 37, 69, 101}, 0, 24}));
    EXPECT_NE(r.out.find("   5 L5,37,69,101 C0[23..16]"), std::string::npos);
}

TEST(CliTcgen05Text, SparseMetadataMatchesTheJsonForEveryKind) {
    for (const std::string kind : {"f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4"})
        for (const std::string& shape : {"tcgen05.mma.sp.cta_group::1.kind::" + kind + ".m128n64",
                                         "tcgen05.mma.sp.cta_group::2.kind::" + kind + ".m256n64"}) {
            SCOPED_TRACE(shape);
            const auto [text, j] = textAndJson({shape, {}});
            ASSERT_TRUE(j.contains("metadata")) << "the JSON places this form's metadata";
            const auto e = textTable(text, "E");
            ASSERT_FALSE(e.empty()) << "no metadata table in the text";
            EXPECT_EQ(e, jsonTable(j["metadata"]["rows"], false));
        }
}

TEST(CliTcgen05Text, WhatNoTablePlacesIsAFindingAsInTheJson) {
    for (const std::string spec :
         {"tcgen05.mma.sp.cta_group::1.kind::f16.m64n64", "tcgen05.mma.sp.cta_group::2.kind::f16.m128n64",
          "tcgen05.mma.ws.sp.cta_group::1.kind::f16.m32n64",
          "tcgen05.mma.cta_group::2.kind::mxf8f6f4.m128n64"}) {
        SCOPED_TRACE(spec);
        const auto [text, j] = textAndJson({spec, {}});
        int textFindings = 0;
        for (const auto& f : j["findings"]) {
            const std::string s = f;
            if (s.find("sparse metadata") == std::string::npos &&
                s.find("scale factors") == std::string::npos)
                continue;
            // The JSON's sentence, after the text's "finding: " (the metadata's with its figure).
            const std::string tail = s.substr(s.rfind(": ") + 2);
            EXPECT_NE(text.find(tail), std::string::npos) << "missing in the text: " << s;
            ++textFindings;
        }
        EXPECT_GT(textFindings, 0) << "every one of these forms has a table no figure places";
        std::istringstream lines(text);
        int findingLines = 0;
        for (std::string line; std::getline(lines, line);)
            findingLines += line.rfind("finding: ", 0) == 0;
        EXPECT_EQ(findingLines, textFindings);
    }
}

TEST(CliTcgen05Text, TheTablesFollowAComposedViewToo) {
    const auto r = runCli({"show", "tcgen05.mma.sp.cta_group::1.kind::mxf4.m128n32", "--ld", "32x32b.x8"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(textTable(r.out, "SFA").size(), 128u);
    EXPECT_EQ(textTable(r.out, "SFB").size(), 32u);
    EXPECT_EQ(textTable(r.out, "E").size(), 128u);
}

TEST(CliTcgen05Text, APastedInstructionIsShownWithTheVectorSizeItNames) {
    // As pasted from a kernel, operands and ';' included (they used to be read as a bad .kind).
    const auto f16 = runCli({"show", "tcgen05.mma.cta_group::1.kind::f16 [d], adesc, bdesc, idesc, p;"});
    ASSERT_EQ(f16.code, 0) << f16.err;
    EXPECT_EQ(f16.out.rfind("tcgen05.mma.cta_group::1.kind::f16.m128n256  (", 0), 0u)
        << f16.out.substr(0, 200);
    const auto ld = runCli({"show", "tcgen05.mma.cta_group::1.kind::f16.m128n16", "--ld",
                            "tcgen05.ld.sync.aligned.32x32b.x16.b32 {r0}, [taddr];"});
    EXPECT_EQ(ld.code, 0) << ld.err;
    // The vector size the PTX names is the one whose scale factors are shown (4X is the default).
    const std::string two = "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::2X [d], a, b, i, "
                            "[sfa], [sfb], p;";
    const auto r = runCli({"show", two, "--sfa-id", "2"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("block scale: .scale_vec::2X, SFA ID 2, SFB ID 0"), std::string::npos)
        << r.out.substr(0, 400);
    EXPECT_EQ(textTable(r.out, "SFA").front().size(), 2u) << "2X: two factors a row";
    const auto alias = runCli({"show", "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block32"});
    ASSERT_EQ(alias.code, 0) << alias.err;
    EXPECT_NE(alias.out.find("block scale: .scale_vec::2X"), std::string::npos)
        << "block32 is 2X for mxf4nvf4";
    // Named twice and differently, or a size the kind does not take: exit 2, saying what is valid.
    const auto twice = runCli({"show", two, "--scale-vec", "4X"});
    EXPECT_EQ(twice.code, 2);
    EXPECT_NE(twice.err.find("give the vector size once"), std::string::npos) << twice.err;
    const auto wrong = runCli({"show", "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::2X"});
    EXPECT_EQ(wrong.code, 2);
    EXPECT_NE(wrong.err.find("valid: .scale_vec::1X"), std::string::npos) << wrong.err;
    const auto none = runCli({"show", "tcgen05.mma.cta_group::1.kind::f16.scale_vec::2X"});
    EXPECT_EQ(none.code, 2);
    EXPECT_NE(none.err.find("without block scaling"), std::string::npos) << none.err;
}

} // namespace

} // namespace test_cli_tcgen05_text
