// A tile's Triton LinearLayout (docs/tiles.md#triton): the exported bases, evaluated, give every cell of A, B
// and C/D the CTA thread and value the tile gives it; the layout reader reads them back equal; a tile that no
// LinearLayout holds is refused by name.
#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_formats.hpp"
#include "lanemap/layout_in.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"

#include "selection_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <stdexcept>
#include <tuple>

namespace lanemap::test_tile_triton {
namespace {

using test::tiled;

struct Case {
    const char* spec;
    const char* atoms;
    const char* permutation;
};

const Case kCases[] = {
    {"mma.m16n8k16.f16", "(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16"}, // the issue's
    {"mma.m16n8k16.f16", "(4,1,1)", ""},
    {"mma.m16n8k16.f16", "(2,2,1):(2,1,0)", "_64,_32,_32"},    // strided, rests along M, N, K
    {"mma.m16n8k16.f16", "(1,2,2)", "_,_,_64"},                // K across warps: C replicated
    {"mma.m16n8k16.f16", "(2,1,1)", "(_16,_2):(_2,_1),_16,_"}, // an M permutation
    {"mma.m16n8k8.tf32", "(2,2,1)", ""},
    {"mma.m16n8k32.s8", "(1,4,1)", "_,_64,_"},
    {"wgmma.m64n16k16.f16.f16", "(2,1,1)", ""}, // two warpgroups: three warp bases
};

// The image of (register, lane, warp) under an operand's bases: the XOR of the bases of the set bits.
std::pair<int, int> image(const nlohmann::json& bases, int reg, int lane, int warp) {
    int d0 = 0, d1 = 0;
    for (const auto& [name, value] : {std::pair{"register", reg}, {"lane", lane}, {"warp", warp}}) {
        const nlohmann::json& list = bases[name];
        for (std::size_t b = 0; b < list.size(); ++b)
            if ((value >> b) & 1) {
                d0 ^= list[b][0].get<int>();
                d1 ^= list[b][1].get<int>();
            }
        EXPECT_EQ(value >> list.size(), 0)
            << name << ' ' << value << " has bits beyond its " << list.size() << " bases";
    }
    return {d0, d1};
}

TEST(TileTriton, TheBasesPlaceEveryCellOfEveryOperandWhereTheTileDoes) {
    for (const Case& c : kCases) {
        const auto in = tiled(c.spec, c.atoms, c.permutation);
        SCOPED_TRACE(tile::nameOf(*in));
        std::string doc, error;
        ASSERT_TRUE(exportInstruction(*in, ExportFormat::Triton, {}, doc, error)) << error;
        const nlohmann::json j = nlohmann::json::parse(doc);
        EXPECT_EQ(j["tile"]["atom_layout"], in->tile->atomLayout);
        EXPECT_EQ(j["tile"]["threads"], in->threads);
        ASSERT_EQ(j["operands"].size(), in->operands.size());
        for (const nlohmann::json& o : j["operands"]) {
            const FragmentLayout& op = *in->operand(*parseOperand(o["operand"].get<std::string>()));
            ASSERT_TRUE(o["linear"].get<bool>()) << op.name() << ": " << o.value("reason", "");
            EXPECT_EQ(o["out_dims"]["dim0"], op.rows());
            EXPECT_EQ(o["out_dims"]["dim1"], op.cols());
            const nlohmann::json& bases = o["bases"];
            EXPECT_EQ(1 << (bases["lane"].size() + bases["warp"].size()), op.threads());
            EXPECT_EQ(1 << bases["register"].size(), op.elementsPerThread());
            // Every (thread, value) lands on the tile's element; every cell is held by someone.
            std::map<std::pair<int, int>, int> holders;
            for (int t = 0; t < op.threads(); ++t)
                for (int v = 0; v < op.elementsPerThread(); ++v) {
                    const Element& e = op.element(t, v);
                    const auto at = image(bases, v, t % 32, t / 32);
                    ASSERT_EQ(at, std::pair(int(e.row), int(e.col)))
                        << op.name() << " thread " << t << " value " << v;
                    ++holders[at];
                }
            EXPECT_EQ(holders.size(), static_cast<std::size_t>(op.rows() * op.cols())) << op.name();
        }
    }
}

TEST(TileTriton, CheckReadsTheExportBackEqualToTheTile) {
    using namespace layout_in;
    for (const Case& c : kCases) {
        const auto in = tiled(c.spec, c.atoms, c.permutation);
        SCOPED_TRACE(tile::nameOf(*in));
        const std::string doc = toTritonJson(*in);
        for (const FragmentLayout& op : in->operands) {
            ReadOptions options;
            options.operand = op.operand();
            const auto read = layout_in::read(doc, options);
            ASSERT_TRUE(std::holds_alternative<Layout>(read)) << std::get<ReadError>(read).describe();
            const Layout& l = std::get<Layout>(read);
            EXPECT_EQ(l.threads, in->threads);
            const Comparison same = compare(l, op);
            EXPECT_TRUE(same.equal()) << op.name() << ": " << same.why << ", " << same.differing << " differ";
            // The atom's own bases are not the tile's: another tile's layout differs, cell by cell.
            if (std::string_view(c.atoms) == "(2,2,1)" && std::string_view(c.spec) == "mma.m16n8k16.f16" &&
                op.operand() == Operand::C) {
                const auto plain = tiled(c.spec, "(2,2,1)", "_32,_32,_16");
                const Comparison other = compare(l, *plain->operand(Operand::C));
                EXPECT_FALSE(other.equal());
                EXPECT_GT(other.differing, 0);
            }
        }
    }
}

TEST(TileTriton, ATileNoLinearLayoutHoldsIsRefusedByName) {
    std::string doc, error;
    // Three warps along M: 96 threads.
    auto in = tiled("mma.m16n8k16.f16", "(3,1,1)");
    EXPECT_FALSE(exportInstruction(*in, ExportFormat::Triton, {}, doc, error));
    EXPECT_NE(error.find("--atom-layout (3,1,1) puts 3 atoms along M"), std::string::npos) << error;
    // N of 24: three rests of the 8-wide atom.
    in = tiled("mma.m16n8k16.f16", "(1,1,1)", "_,_24,_");
    EXPECT_FALSE(exportInstruction(*in, ExportFormat::Triton, {}, doc, error));
    EXPECT_NE(error.find("the tile's N is 24 (--permutation N _24)"), std::string::npos) << error;
    // The app's Copy as Triton gets the same reason per operand.
    const nlohmann::json j = nlohmann::json::parse(toTritonJson(*in));
    EXPECT_FALSE(j["operands"][0]["linear"].get<bool>());
    EXPECT_NE(j["operands"][0]["reason"].get<std::string>().find("the tile's N is 24"), std::string::npos);
    // A sparse atom's A is not linear alone; its tile says so as the atom does, and B and C still have bases.
    in = tiled("mma.sp.m16n8k32.f16", "(2,1,1)");
    ASSERT_TRUE(exportInstruction(*in, ExportFormat::Triton, {}, doc, error)) << error;
    const nlohmann::json sparse = nlohmann::json::parse(doc);
    EXPECT_FALSE(sparse["operands"][0]["linear"].get<bool>());
    EXPECT_NE(sparse["operands"][0]["reason"].get<std::string>().find("sparse A"), std::string::npos);
    EXPECT_TRUE(sparse["operands"][1]["linear"].get<bool>());
}

} // namespace
} // namespace lanemap::test_tile_triton
