// The shared-memory picture of a matrix move (buildBanksDiagram): its chunk cells say what banks::analyze
// says (address, supplying thread, bank group, wavefront, conflict), and the SVG carries the conflict frames.
#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/svg.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <span>
#include <stdexcept>
#include <string>

namespace test_diagram_banks {

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
    EXPECT_NE(conflicting.find("lane 0 \u00b7 matrix 0 row 0 \u00b7 banks 0..3 \u00b7 phase 0 \u00b7 "
                               "wavefront 1 of 4 \u00b7 bank conflict"),
              std::string::npos);
    EXPECT_NE(conflicting.find(">T9 m1r1<"), std::string::npos);
    EXPECT_EQ(clean.find(red), std::string::npos);
    EXPECT_EQ(clean.find("bank conflict"), std::string::npos);
}

banks::FeedCheck feedCheck(const char* move, const char* consumer, Operand operand, const char* smem) {
    std::string error;
    const std::optional<banks::Placement> p = banks::parsePlacement(smem, error);
    if (!p)
        throw std::runtime_error(error);
    const std::optional<banks::FeedCheck> c =
        banks::checkFeed(variant(move), *Catalog::instance().instruction(consumer), operand, *p, error);
    if (!c)
        throw std::runtime_error(error);
    return *c;
}

banks::Analysis analyzeFed(const char* move, const char* smem, int rows, int cols) {
    std::string error;
    std::optional<banks::Placement> p = banks::parsePlacement(smem, error);
    p->tileRows = rows;
    p->tileCols = cols;
    const std::optional<banks::Analysis> a = banks::analyze(variant(move), *p, error);
    if (!a)
        throw std::runtime_error(error);
    return *a;
}

const DiagramCell* cellIn(const Diagram& d, std::size_t panel, int row, int col) {
    const std::span<const std::uint32_t> at = d.panels[panel].cellsAtGrid(row, col);
    return at.empty() ? nullptr : &d.cells[at.front()];
}

// ldmatrix.x4 feeding mma.m16n8k16 A from a row-major tile: an Addresses panel (T9 points at A[9][0], T17 at
// A[1][8]), then A as loaded and A as wanted, identical cell by cell, no red frame; hovering lane 9 lights
// its address, its eight register slots in both grids, its chunk and its bank.
TEST(DiagramBanksFeeds, MatchingFeedDrawsAddressesAndBothGrids) {
    const Variant& v = variant("ldmatrix.m8n8.x4.b16");
    const banks::FeedCheck f = feedCheck("ldmatrix.m8n8.x4.b16", "mma.m16n8k16.f16", Operand::A, "row-major");
    const Diagram d = buildBanksDiagram(v, analyzeFed("ldmatrix.m8n8.x4.b16", "row-major", 16, 16), f);
    ASSERT_EQ(d.panels.size(), 3u + 1u + 4u);
    EXPECT_EQ(d.panels[0].kind, PanelKind::Addresses);
    EXPECT_EQ(d.panels[1].kind, PanelKind::Operand);
    EXPECT_EQ(d.panels[2].kind, PanelKind::Operand);
    EXPECT_EQ(d.panels[3].kind, PanelKind::Chunks);
    EXPECT_EQ(d.panels[1].title, "A as ldmatrix.m8n8.x4.b16 loads it");
    EXPECT_EQ(d.panels[2].title, "A as mma.m16n8k16.f16 wants it");
    EXPECT_EQ(d.panels[1].rows, 16);
    EXPECT_EQ(d.panels[1].cols, 16);
    const DiagramCell* t9 = cellIn(d, 0, 1, 1);
    ASSERT_NE(t9, nullptr);
    EXPECT_EQ(d.label(*t9), "T9 [9][0]");
    EXPECT_EQ(d.tooltip(*t9), "lane 9 points at A[9][0] \u00b7 0x120 \u00b7 matrix 1 row 1");
    EXPECT_EQ(d.label(*cellIn(d, 0, 2, 1)), "T17 [1][8]");
    // Every element is drawn once in each grid, by the slot holding it: A[0][1] is T0's a1, A[8][0] T0's a2.
    for (std::size_t panel : {1u, 2u}) {
        EXPECT_EQ(d.panels[panel].cellCount, 256u);
        EXPECT_EQ(d.label(*cellIn(d, panel, 0, 1)), "T0:a1");
        EXPECT_EQ(d.label(*cellIn(d, panel, 8, 0)), "T0:a2");
        EXPECT_EQ(d.tooltip(*cellIn(d, panel, 8, 0)), "lane 0 a2 \u00b7 r1[15..0] \u00b7 (8,0)");
    }
    // No slot framed (the memory's chunks are: 32-byte rows put two rows of a phase in one bank group).
    for (const DiagramCell& c : d.cells) {
        if (d.panels[c.panel].kind == PanelKind::Operand) {
            EXPECT_FALSE(c.conflict) << d.tooltip(c);
        }
    }
    EXPECT_EQ(
        d.caption.back(),
        "feeds mma.m16n8k16.f16:A: every register slot holds the element the fragment wants (256 slots)");
    // Hover lane 9: 1 address + 8 slots in each grid + its chunk + its phase cell.
    std::map<std::size_t, int> lit;
    for (std::uint32_t i : d.cellsOfThread(9))
        ++lit[d.cells[i].panel];
    EXPECT_EQ(lit[0], 1);
    EXPECT_EQ(lit[1], 8);
    EXPECT_EQ(lit[2], 8);
    EXPECT_EQ(lit[3], 1);
    EXPECT_EQ(lit[4] + lit[5] + lit[6] + lit[7], 1);
    // The hit test finds a register cell of the overlay.
    const DiagramCell* a2 = cellIn(d, 1, 8, 0);
    EXPECT_EQ(d.cellAt(a2->rect.x + 2, a2->rect.y + 2), static_cast<int>(a2 - d.cells.data()));
}

// ldmatrix.x2 (no .trans) from a K-row-major B does not give the mma B fragment: the slots that differ are
// framed in red in both grids, titles and caption say how many, and the SVG carries it.
TEST(DiagramBanksFeeds, MismatchingFeedFramesTheCellsThatDiffer) {
    const Variant& v = variant("ldmatrix.m8n8.x2.b16");
    const banks::FeedCheck f = feedCheck("ldmatrix.m8n8.x2.b16", "mma.m16n8k16.f16", Operand::B, "row-major");
    ASSERT_GT(f.mismatches, 0);
    const Diagram d = buildBanksDiagram(v, analyzeFed("ldmatrix.m8n8.x2.b16", "row-major", 16, 8), f);
    EXPECT_EQ(d.panels[1].title,
              "B as ldmatrix.m8n8.x2.b16 loads it: " + std::to_string(f.mismatches) + " slots differ");
    // T0's b1: loaded from B[0][1], wanted at B[1][0]; both framed.
    const DiagramCell* loaded = cellIn(d, 1, 0, 1);
    const DiagramCell* wanted = cellIn(d, 2, 1, 0);
    ASSERT_NE(loaded, nullptr);
    ASSERT_NE(wanted, nullptr);
    EXPECT_EQ(d.label(*loaded), "T0:b1");
    EXPECT_EQ(d.label(*wanted), "T0:b1");
    EXPECT_TRUE(loaded->conflict);
    EXPECT_TRUE(wanted->conflict);
    // The diagonal of each 8x8 matrix is the same either way (T0:b0 at B[0][0]).
    EXPECT_FALSE(cellIn(d, 1, 0, 0)->conflict);
    int framed = 0;
    for (std::size_t panel : {1u, 2u})
        for (std::uint32_t i = d.panels[panel].firstCell;
             i < d.panels[panel].firstCell + d.panels[panel].cellCount; ++i)
            framed += d.cells[i].conflict;
    EXPECT_EQ(framed, 2 * f.mismatches);
    EXPECT_NE(d.caption.back().find("MISMATCH in " + std::to_string(f.mismatches) + " of 128"),
              std::string::npos)
        << d.caption.back();
    const std::string svg = toSvg(d);
    EXPECT_NE(svg.find("slots differ"), std::string::npos);
    EXPECT_NE(svg.find(">T0:b1<"), std::string::npos);
    EXPECT_NE(svg.find("lane 1 points at B[1][0]"), std::string::npos);
}

// stmatrix draining the mma accumulator: the grids say "stores it" / "holds it".
TEST(DiagramBanksFeeds, StmatrixDrainingDIsDrawnToo) {
    const Variant& v = variant("stmatrix.m8n8.x2.b16");
    const banks::FeedCheck f =
        feedCheck("stmatrix.m8n8.x2.b16", "mma.m16n8k16.f16.f16", Operand::D, "row-major");
    EXPECT_EQ(f.mismatches, 0);
    const Diagram d = buildBanksDiagram(v, analyzeFed("stmatrix.m8n8.x2.b16", "row-major", 16, 8), f);
    EXPECT_EQ(d.panels[1].title, "D as stmatrix.m8n8.x2.b16 stores it");
    EXPECT_EQ(d.panels[2].title, "D as mma.m16n8k16.f16.f16 holds it");
    EXPECT_EQ(d.label(*cellIn(d, 2, 8, 0)), "T0:d2");
}

} // namespace

} // namespace test_diagram_banks
