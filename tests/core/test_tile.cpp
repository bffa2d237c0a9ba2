// Tiles of MMA atoms (lanemap/tile.hpp, docs/tiles.md): the notation read once, CuTe's own answer reproduced
// element by element, replication, and bad tiles refused with what is valid.
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"
#include "lanemap/query.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace lanemap::test_tile {
namespace {

tile::TileLayout tileOf(std::string_view atoms, std::string_view permutation = "") {
    std::string error;
    const std::optional<tile::TileLayout> t = tile::parseTileLayout(atoms, permutation, error);
    if (!t)
        throw std::runtime_error(error);
    return *t;
}

Selection selectionOf(std::string_view spec, const tile::TileLayout& t) {
    const ParsedSpec parsed = parseSpec(spec, Catalog::instance());
    if (!parsed)
        throw std::runtime_error(parsed.error);
    Selection s = lanemap::selectionOf(parsed);
    s.params.tile = t;
    return s;
}

std::shared_ptr<const Instruction> tiled(std::string_view spec, std::string_view atoms,
                                         std::string_view permutation = "") {
    return instantiate(selectionOf(spec, tileOf(atoms, permutation)));
}

std::string refusal(std::string_view spec, std::string_view atoms, std::string_view permutation = "") {
    return validate(selectionOf(spec, tileOf(atoms, permutation)));
}

TEST(CuteLayout, ReadsCutesNotationAndEvaluatesColexicographically) {
    std::string error;
    const auto l = parseCuteLayout("(_8,_2,_2):(_1,_16,_8)", error);
    ASSERT_TRUE(l) << error;
    EXPECT_EQ(l->size(), 32);
    // i = i0 + 8 i1 + 16 i2 -> i0 + 16 i1 + 8 i2: the second warp's columns are 16..23.
    EXPECT_EQ((*l)(8), 16);
    EXPECT_EQ((*l)(16), 8);
    EXPECT_EQ((*l)(31), 31);
    EXPECT_EQ(l->cute(), "(_8,_2,_2):(_1,_16,_8)");
    // Nested shapes flatten; no stride is CuTe's compact column-major one.
    const auto nested = parseCuteLayout("((2,4),8)", error);
    ASSERT_TRUE(nested) << error;
    EXPECT_EQ(nested->shape, (std::vector<int>{2, 4, 8}));
    EXPECT_EQ(nested->stride, (std::vector<int>{1, 2, 8}));
    EXPECT_FALSE(parseCuteLayout("(8,2):(1)", error));
    EXPECT_NE(error.find("nesting"), std::string::npos) << error;
    EXPECT_FALSE(parseCuteLayout("(8,x)", error));
    EXPECT_NE(error.find("expected an integer"), std::string::npos) << error;
}

TEST(Tile, ReadsThePermutationOfTheIssueAndWritesItBack) {
    const tile::TileLayout t = tileOf("(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16");
    EXPECT_EQ(t.atomLayoutText(), "(2,2,1)");
    EXPECT_EQ(t.permutationText(), "_32,(_8,_2,_2):(_1,_16,_8),_16");
    EXPECT_EQ(tileOf("(2,2,1):(2,1,0)").atomLayoutText(), "(2,2,1):(2,1,0)");
    // CuTe prints a Tile in parentheses; '_' is no permutation.
    EXPECT_EQ(tileOf("(1,1,1)", "(_32,_,_32)").permutationText(), "_32,_,_32");
}

// CuTe's make_tiled_mma, evaluated by tests/data/cute/gen_tiled_mma.cpp: get_layout{A,B,C}_TV()(thread,
// value) is the column-major index of the element in the tile's (M,K), (N,K), (M,N). lanemap's tile must give
// every thread the same elements in the same value order.
TEST(TileAgainstCute, EveryThreadHoldsWhatCutesMakeTiledMmaSays) {
    std::ifstream in(LANEMAP_SOURCE_DIR "/tests/data/cute/tiled_mma.json");
    ASSERT_TRUE(in) << "tests/data/cute/tiled_mma.json is missing";
    const nlohmann::json doc = nlohmann::json::parse(in);
    ASSERT_GE(doc["cases"].size(), 8u);
    for (const auto& c : doc["cases"]) {
        const std::string spec = c["spec"], atoms = c["atom_layout"], perm = c["permutation"];
        SCOPED_TRACE(spec + " " + atoms + " " + perm);
        const auto inst = tiled(spec, atoms, perm);
        const int M = c["tile"][0], N = c["tile"][1], K = c["tile"][2];
        EXPECT_EQ(inst->m, M);
        EXPECT_EQ(inst->n, N);
        EXPECT_EQ(inst->k, K);
        EXPECT_EQ(inst->threads, c["threads"].get<int>());
        int compared = 0;
        for (const FragmentLayout& op : inst->operands) {
            const Operand o = op.operand();
            const char* key = o == Operand::A ? "A" : o == Operand::B ? "B" : "C"; // C and D: CuTe's C
            ASSERT_TRUE(c.contains(key)) << key;
            const auto& cute = c[key];
            ASSERT_EQ(static_cast<int>(cute.size()), op.threads()) << key;
            ASSERT_EQ(static_cast<int>(cute[0].size()), op.elementsPerThread()) << key;
            // CuTe's get_layoutC_TV() covers the threads of one K slice (ThrV x ThrM x ThrN of them; the
            // tests' atom layouts number K outermost): a thread of another slice holds what its twin in the
            // first does, as partition_C gives it (CuTe's value for it lies outside the tile).
            const int cThreads = op.threads() / inst->tile->atomsPerMode[tile::K];
            for (const Element& e : op.elements()) {
                if (key[0] == 'C' && e.thread >= cThreads) {
                    ASSERT_GE(cute[e.thread][e.index].get<int>(), M * N);
                    const Element& twin = op.element(e.thread % cThreads, e.index);
                    ASSERT_EQ(std::make_pair(e.row, e.col), std::make_pair(twin.row, twin.col));
                    ++compared;
                    continue;
                }
                // A: m + M k; B (CuTe's N x K; lanemap's rows are k): n + N k; C and D: m + M n.
                const int index =
                    o == Operand::B ? e.col + N * e.row : e.row + (o == Operand::A ? M : M) * e.col;
                ASSERT_EQ(cute[e.thread][e.index].get<int>(), index)
                    << key << " thread " << e.thread << " value " << e.index << " (" << e.row << "," << e.col
                    << ")";
                ++compared;
            }
        }
        EXPECT_GT(compared, 0);
    }
}

TEST(Tile, TheIssuesExampleIsA32x32x16TileOf128Threads) {
    const auto in = tiled("mma.m16n8k16.f16", "(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16");
    EXPECT_EQ(in->scope, Scope::Cta);
    EXPECT_EQ(in->threads, 128);
    EXPECT_EQ(in->m, 32);
    EXPECT_EQ(in->n, 32);
    EXPECT_EQ(in->k, 16);
    ASSERT_TRUE(in->tile);
    EXPECT_EQ(in->tile->atomThreads, 32);
    // Warp 1 (atom (1,0,0)) holds rows 16..31; the permutation gives warp 2 (atom (0,1,0)) columns 16..23 of
    // C.
    const FragmentLayout& c = *in->operand(Operand::C);
    EXPECT_EQ(c.elementsPerThread(), 8); // 4 of the atom x 2 atoms along N
    EXPECT_EQ(c.registers(), 8);         // f32 accumulators: one per register
    const auto owner = [&](int row, int col) { return c.owners(row, col).front(); };
    EXPECT_EQ(owner(16, 0).thread, 32);
    EXPECT_EQ(owner(0, 16).thread, 64);
    EXPECT_EQ(owner(0, 8).thread, 0);
    EXPECT_EQ(owner(0, 8).index, 4); // the second atom along N: its values come after the first's
    EXPECT_EQ(owner(0, 8).reg, 4);
    EXPECT_EQ(c.maxOwners(), 1);
}

TEST(Tile, ThreadsThatDifferOnlyAlongNHoldTheSameA) {
    const auto in = tiled("mma.m16n8k16.f16", "(2,2,1)");
    const FragmentLayout& a = *in->operand(Operand::A);
    const FragmentLayout& b = *in->operand(Operand::B);
    const FragmentLayout& c = *in->operand(Operand::C);
    EXPECT_EQ(a.maxOwners(), 2); // warps 0 and 2 hold the same A (CuTe's stride 0 along N)
    EXPECT_EQ(b.maxOwners(), 2); // warps 0 and 1 the same B
    EXPECT_EQ(c.maxOwners(), 1);
    std::set<int> holders;
    for (const Element& e : a.owners(5, 3))
        holders.insert(e.thread);
    EXPECT_EQ(holders, (std::set<int>{21, 85})); // lane 21 of warps 0 and 2
    // K along the atom layout: C is held twice (the partial sums a kernel reduces), A and B once.
    const auto k2 = tiled("mma.m16n8k16.f16", "(1,1,2)");
    EXPECT_EQ(k2->k, 32);
    EXPECT_EQ(k2->operand(Operand::C)->maxOwners(), 2);
    EXPECT_EQ(k2->operand(Operand::A)->maxOwners(), 1);
}

TEST(Tile, AWgmmaTileCountsWarpgroups) {
    const auto in = tiled("wgmma.m64n16k16.f16", "(2,1,1)");
    EXPECT_EQ(in->threads, 256);
    EXPECT_EQ(in->m, 128);
    ASSERT_TRUE(in->tile);
    EXPECT_EQ(in->tile->atomThreads, 128);
    const FragmentLayout& d = *in->operand(Operand::D);
    EXPECT_EQ(d.owners(64, 0).front().thread, 128); // warpgroup 1 holds rows 64..127
    // The tile shows its register operands: the one atom's shared-memory A and B are not the tile's.
    EXPECT_FALSE(in->hasSpace(Space::SharedMemory));
    std::string error;
    const auto where = query::where(*in, Operand::D, 64, 0, error);
    ASSERT_TRUE(where) << error;
    EXPECT_NE(query::toText(*in, *where).find("warpgroup 1, warp 4, lane 0"), std::string::npos)
        << query::toText(*in, *where);
}

TEST(Tile, ASparseTileKeepsItsChunks) {
    const auto in = tiled("mma.sp.m16n8k32.f16", "(2,1,1)", "_,_,_64");
    EXPECT_EQ(in->k, 64);
    const FragmentLayout& a = *in->operand(Operand::A);
    EXPECT_TRUE(a.chunked());
    EXPECT_EQ(a.threads(), 64);
    // Every element of the 32 x 64 A is covered by some chunk.
    EXPECT_EQ(a.uniqueCells(), 32 * 64);
    EXPECT_EQ(in->metadata, nullptr);
}

TEST(Tile, ExportsNameTheTileAndEveryThreadsWarpAndLane) {
    const auto in = tiled("mma.m16n8k16.f16", "(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16");
    std::string doc, error;
    ASSERT_TRUE(exportInstruction(*in, ExportFormat::Json, {}, doc, error)) << error;
    const nlohmann::json j = nlohmann::json::parse(doc);
    EXPECT_EQ(j["scope"], "cta");
    EXPECT_EQ(j["threads"], 128);
    EXPECT_EQ(j["tile"]["atom_layout"], "(2,2,1)");
    EXPECT_EQ(j["tile"]["permutation"], "_32,(_8,_2,_2):(_1,_16,_8),_16");
    EXPECT_EQ(j["tile"]["atom"]["m"], 16);
    EXPECT_EQ(j["shape"]["n"], 32);
    const auto& c = j["operands"][2];
    ASSERT_EQ(c["name"], "C");
    EXPECT_EQ(c["elements"].size(), 32u * 32u);
    for (const auto& e : c["elements"]) {
        ASSERT_EQ(e["warp"].get<int>(), e["thread"].get<int>() / 32);
        ASSERT_EQ(e["lane"].get<int>(), e["thread"].get<int>() % 32);
    }
    ASSERT_TRUE(exportInstruction(*in, ExportFormat::Text, {}, doc, error)) << error;
    EXPECT_NE(doc.find("tile 32x32x16 (atom layout (2,2,1), permutation _32,(_8,_2,_2):(_1,_16,_8),_16)"),
              std::string::npos)
        << doc.substr(0, 400);
    EXPECT_NE(doc.find("T64:c0"), std::string::npos);
    // The code exports describe one instruction: refused, naming what a tile exports as.
    EXPECT_FALSE(exportInstruction(*in, ExportFormat::Cuda, {}, doc, error));
    EXPECT_NE(error.find("json, txt, svg, html, cute or triton"), std::string::npos) << error;
}

TEST(Tile, TheDiagramNamesWarpAndLaneOnHover) {
    const auto in = tiled("mma.m16n8k16.f16", "(2,2,1)");
    const Diagram d = buildDiagram(*in);
    EXPECT_NE(d.title.find("tile 32x16x16"), std::string::npos) << d.title;
    bool found = false;
    for (const DiagramCell& c : d.cells)
        if (c.thread == 97 && c.element == 0 && d.panels[c.panel].name == "A") {
            EXPECT_EQ(d.tooltip(c).rfind("warp 3 lane 1 a0", 0), 0u) << d.tooltip(c);
            found = true;
        }
    EXPECT_TRUE(found);
    EXPECT_EQ(d.threads, 128);
}

TEST(Tile, ColouredByWarpTheLegendNamesEachWarpsThreads) {
    const auto in = tiled("mma.m16n8k16.f16", "(2,2,1)");
    DiagramOptions o;
    o.colorBy = ColorBy::Warp;
    const Diagram d = buildDiagram(*in, o);
    ASSERT_FALSE(d.legends.empty());
    std::set<std::string> entries;
    for (const LegendEntry& e : d.legends.front().entries)
        entries.insert(e.text);
    EXPECT_EQ(entries.size(), 4u);
    EXPECT_TRUE(entries.count("warp 3  (T96..127)")) << *entries.begin();
    for (const DiagramCell& c : d.cells)
        ASSERT_EQ(c.colorKey, static_cast<std::uint32_t>(c.thread / 32));
    o.colorBy = ColorBy::Warpgroup;
    const Diagram g = buildDiagram(*tiled("wgmma.m64n16k16.f16", "(2,1,1)"), o);
    EXPECT_EQ(g.legends.front().entries.size(), 2u);
    EXPECT_EQ(parseColorBy("warpgroup"), ColorBy::Warpgroup);
}

// Colour by thread: hue by lane, shade by warp; on one warp's instruction the lane colours unchanged.
TEST(Tile, ColouredByThreadEachWarpShadesItsLanes) {
    const auto in = tiled("mma.m16n8k16.f16", "(2,2,1)");
    DiagramOptions o;
    o.colorBy = ColorBy::Thread;
    EXPECT_EQ(parseColorBy("thread"), ColorBy::Thread);
    const Diagram d = buildDiagram(*in, o);
    std::map<int, Rgb> fillOf;
    for (const DiagramCell& c : d.cells) {
        ASSERT_EQ(c.colorKey, static_cast<std::uint32_t>(c.thread));
        fillOf[c.thread] = c.fill;
    }
    // Lane 5 of warps 0..3: four different fills; lane 5 and lane 6 of warp 2 differ too.
    std::set<std::tuple<int, int, int>> lane5;
    for (int w = 0; w < 4; ++w)
        lane5.insert({fillOf[32 * w + 5].r, fillOf[32 * w + 5].g, fillOf[32 * w + 5].b});
    EXPECT_EQ(lane5.size(), 4u);
    EXPECT_NE(fillOf[69], fillOf[70]);
    ASSERT_FALSE(d.legends.empty());
    EXPECT_EQ(d.legends.front().entries.size(), 4u);
    EXPECT_EQ(d.legends.front().entries[2].text, "warp 2  (T64..95)");
    // One warp: thread colours are lane colours.
    for (int lane = 0; lane < 32; ++lane)
        EXPECT_EQ(paletteColor(Palette::Default, ColorBy::Thread, lane),
                  paletteColor(Palette::Default, ColorBy::Lane, lane));
}

TEST(Tile, TheCuteExportIsTheMakeTiledMmaCallAndTheTilesLayouts) {
    const auto in = tiled("mma.m16n8k16.f16", "(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16");
    std::string doc, error;
    ASSERT_TRUE(exportInstruction(*in, ExportFormat::Cute, {}, doc, error)) << error;
    EXPECT_NE(doc.find("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}"), std::string::npos) << doc;
    EXPECT_NE(doc.find("Layout<Shape<_2,_2,_1>, Stride<_1,_2,_4>>{}"), std::string::npos) << doc;
    EXPECT_NE(doc.find("Tile<_32, Layout<Shape<_8,_2,_2>, Stride<_1,_16,_8>>, _16>{}"), std::string::npos)
        << doc;
    // C over 128 threads and 8 values, one CuTe layout.
    EXPECT_NE(doc.find("C: (T128,V8) -> (M32,N32)"), std::string::npos) << doc;
    const auto wg = tiled("wgmma.m64n16k16.f16.f16", "(2,1,1)");
    ASSERT_TRUE(exportInstruction(*wg, ExportFormat::Cute, {}, doc, error)) << error;
    EXPECT_NE(doc.find("SM90::GMMA::MMA_64x16x16_F16F16F16_RS<GMMA::Major::K, GMMA::Major::K>{}"),
              std::string::npos)
        << doc;
}

TEST(TileRefused, BadTilesSayWhatIsWrongAndWhatIsValid) {
    const std::string spec = "mma.m16n8k16.f16";
    // 64 warps: 2048 threads.
    std::string why = refusal(spec, "(8,8,1)");
    EXPECT_NE(why.find("2048 threads; a CTA has at most 1024"), std::string::npos) << why;
    why = refusal("wgmma.m64n16k16.f16", "(3,3,1)");
    EXPECT_NE(why.find("at most 8 warpgroups"), std::string::npos) << why;
    // Two atoms numbered alike.
    why = refusal(spec, "(2,2,1):(1,1,0)");
    EXPECT_NE(why.find("numbers two atoms alike"), std::string::npos) << why;
    // Not a bijection: (_8,_4):(_1,_4) reaches 4..7 twice.
    why = refusal(spec, "(2,2,1)", "_,(_8,_2):(_1,_4),_");
    EXPECT_NE(why.find("not a bijection onto 0..15"), std::string::npos) << why;
    why = refusal(spec, "(2,2,1)", "_,(_8,_2):(_1,_16),_");
    EXPECT_NE(why.find("outside the tile's N"), std::string::npos) << why;
    // K not a multiple of the atom's.
    why = refusal(spec, "(2,2,1)", "_,_,_24");
    EXPECT_NE(why.find("the tile's K is a multiple of 16"), std::string::npos) << why;
    why = refusal(spec, "(2,2,1)", "_48,_,_");
    EXPECT_NE(why.find("multiple of 32 (16 of the atom x 2 atoms)"), std::string::npos) << why;
    // A tile of something that is no MMA atom.
    why = refusal("ldmatrix.m8n8.x4.b16", "(2,1,1)");
    EXPECT_NE(why.find("tile an MMA atom"), std::string::npos) << why;
    why = refusal("mma.m8n8k4.row.col.f16", "(2,1,1)");
    EXPECT_NE(why.find("quad-pair"), std::string::npos) << why;
    why = refusal("mma.sp.m16n8k32.f16", "(1,1,1)", "_,_,(_16,_2):(_2,_1)");
    EXPECT_NE(why.find("reorders K of the sparse"), std::string::npos) << why;
    // Syntax: the mode count of each.
    std::string error;
    EXPECT_FALSE(tile::parseTileLayout("(2,2)", "", error));
    EXPECT_NE(error.find("three, the atoms along M, N and K"), std::string::npos) << error;
    EXPECT_FALSE(tile::parseTileLayout("(2,2,1)", "_32,_32,_16,_2", error));
    EXPECT_NE(error.find("at most three"), std::string::npos) << error;
}

} // namespace
} // namespace lanemap::test_tile
