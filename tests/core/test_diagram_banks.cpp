// The shared-memory picture of a matrix move (buildBanksDiagram): its chunk cells say what banks::analyze
// says (address, supplying thread, bank group, wavefront, conflict), and the SVG carries the conflict frames.
#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/svg.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using namespace lanemap;

const Variant& variant(const char* spec) {
    return *Catalog::instance().variant(spec);
}

banks::Analysis analyzeText(const Variant& v, const char* smem) {
    std::string error;
    const std::optional<banks::Placement> p = banks::parsePlacement(smem, error);
    if (!p)
        throw std::runtime_error(error);
    const std::optional<banks::Analysis> a = banks::analyze(v, *p, error);
    if (!a)
        throw std::runtime_error(error);
    return *a;
}

std::string hexColor(Rgb c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
    return buf;
}

// Every row access of the analysis is one cell in the memory panel (at its address's line and banks) and one
// in its phase's panel (at its wavefront), both owned by the supplying thread and labelled with matrix and
// row.
void expectCellsMatch(const Diagram& d, const banks::Analysis& a) {
    ASSERT_EQ(d.panels.size(), a.phases.size() + 1);
    const DiagramPanel& memory = d.panels[0];
    EXPECT_EQ(memory.kind, PanelKind::Chunks);
    EXPECT_EQ(memory.cols, 32);
    std::size_t rows = 0;
    for (const banks::Phase& ph : a.phases) {
        const DiagramPanel& panel = d.panels[static_cast<std::size_t>(ph.index) + 1];
        EXPECT_EQ(panel.rows, ph.degree) << panel.title;
        EXPECT_NE(panel.title.find(std::to_string(ph.degree) + " wavefront"), std::string::npos)
            << panel.title;
        for (const banks::RowAccess& r : ph.rows) {
            ++rows;
            bool conflict = false;
            for (const banks::RowAccess& o : ph.rows)
                conflict = conflict || (o.bankGroup == r.bankGroup && o.address / 16 != r.address / 16);
            int inMemory = 0, inPhase = 0;
            for (std::uint32_t i : d.cellsOfThread(r.thread)) {
                const DiagramCell& c = d.cells[i];
                if (c.matrix != r.matrix || c.element != r.row)
                    continue;
                EXPECT_EQ(c.reg, r.bankGroup);
                EXPECT_EQ(c.bitLo, r.wavefront);
                EXPECT_EQ(c.bitHi, ph.degree);
                EXPECT_EQ(c.conflict, conflict) << d.tooltip(c);
                EXPECT_EQ(c.col, r.bankGroup * 4);
                EXPECT_EQ(c.colLast, r.bankGroup * 4 + 3);
                EXPECT_EQ(d.label(c), "T" + std::to_string(r.thread) + " m" + std::to_string(r.matrix) + "r" +
                                          std::to_string(r.row));
                // A hit test in the middle of the cell finds it.
                EXPECT_EQ(d.cellAt(c.rect.x + c.rect.w / 2, c.rect.y + c.rect.h / 2), static_cast<int>(i));
                if (c.panel == 0) {
                    ++inMemory;
                    // The row header is the 128-byte line holding the chunk.
                    char line[16];
                    std::snprintf(line, sizeof line, "0x%04x", r.address / 128 * 128);
                    EXPECT_EQ(memory.rowHeaders[static_cast<std::size_t>(c.row)], line);
                } else {
                    ++inPhase;
                    EXPECT_EQ(c.panel, ph.index + 1);
                    EXPECT_EQ(c.row, r.wavefront);
                }
            }
            EXPECT_EQ(inMemory, 1) << "thread " << r.thread;
            EXPECT_EQ(inPhase, 1) << "thread " << r.thread;
        }
    }
    EXPECT_EQ(d.cells.size(), 2 * rows);
}

// Rows 64 bytes apart: 4-way conflicts in every phase, 16 wavefronts for 4 ideal; every chunk is in a
// conflict.
TEST(DiagramBanks, ConflictingPlacementMatchesAnalysis) {
    const Variant& v = variant("ldmatrix.m8n8.x4.b16");
    const banks::Analysis a = analyzeText(v, "row-major,pitch=64");
    ASSERT_EQ(a.wavefronts, 16);
    const Diagram d = buildBanksDiagram(v, a);
    expectCellsMatch(d, a);
    EXPECT_NE(d.panels[1].title.find("4-way bank conflict"), std::string::npos) << d.panels[1].title;
    for (const DiagramCell& c : d.cells)
        EXPECT_TRUE(c.conflict) << d.tooltip(c);
    bool captioned = false;
    for (const std::string& line : d.caption)
        captioned =
            captioned || line == "L1 Wavefronts Shared 16, Ideal 4, L1 Wavefronts Shared Excessive 12";
    EXPECT_TRUE(captioned);
    // Every conflicting chunk has a red frame.
    std::size_t red = 0;
    for (const DiagramLine& l : d.lines)
        red += l.color == kConflictColor;
    EXPECT_EQ(red, 4 * d.cells.size());
}

// The same tile with CuTe's Swizzle<3,3,3> (128-byte rows) is conflict-free: one wavefront a phase, no
// frames.
TEST(DiagramBanks, ConflictFreePlacementMatchesAnalysis) {
    const Variant& v = variant("ldmatrix.m8n8.x4.b16");
    const banks::Analysis a = analyzeText(v, "row-major,pitch=128,swizzle=3,3,3");
    ASSERT_EQ(a.excessive(), 0);
    const Diagram d = buildBanksDiagram(v, a);
    expectCellsMatch(d, a);
    for (const DiagramCell& c : d.cells)
        EXPECT_FALSE(c.conflict) << d.tooltip(c);
    for (const DiagramLine& l : d.lines)
        EXPECT_FALSE(l.color == kConflictColor);
    EXPECT_NE(d.panels[1].title.find("conflict-free"), std::string::npos) << d.panels[1].title;
    // 16 lines of 128 bytes, one row each; the eight chunks of a phase sit in eight different bank groups.
    EXPECT_EQ(d.panels[0].rows, 16);
    for (const banks::Phase& ph : a.phases) {
        std::set<int> groups;
        for (const banks::RowAccess& r : ph.rows)
            groups.insert(r.bankGroup);
        EXPECT_EQ(groups.size(), 8u);
    }
}

TEST(DiagramBanks, SvgShowsConflictHighlight) {
    const Variant& v = variant("ldmatrix.m8n8.x4.b16");
    const std::string conflicting = toSvg(buildBanksDiagram(v, analyzeText(v, "row-major,pitch=64")));
    const std::string clean =
        toSvg(buildBanksDiagram(v, analyzeText(v, "row-major,pitch=128,swizzle=3,3,3")));
    const std::string red = "stroke=\"" + hexColor(kConflictColor) + "\"";
    EXPECT_NE(conflicting.find(red), std::string::npos);
    EXPECT_NE(conflicting.find("4-way bank conflict"), std::string::npos);
    EXPECT_NE(
        conflicting.find("lane 0: matrix 0 row 0, banks 0..3, phase 0, wavefront 1 of 4 (bank conflict)"),
        std::string::npos);
    EXPECT_NE(conflicting.find(">T9 m1r1<"), std::string::npos);
    EXPECT_EQ(clean.find(red), std::string::npos);
    EXPECT_EQ(clean.find("bank conflict"), std::string::npos);
}

} // namespace
