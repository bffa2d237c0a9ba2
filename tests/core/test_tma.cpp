// cp.async.bulk.tensor (docs/tma.md): a tensor map and a load's coordinates place each box element at a byte
// of shared memory, or mark it fill; the driver's rules refuse what the encoder refuses, naming the
// parameter.
#include "families/tma/tma.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/spec.hpp"

#include <nlohmann/json.hpp>

#include "selection_text.hpp"

#include <gtest/gtest.h>

namespace test_tma {

using namespace lanemap;
using lanemap::test::parsed;
using lanemap::test::placementIn;
using lanemap::test::refusal;

namespace {

std::uint32_t smemAt(const Instruction& i, int r, int c) {
    return std::get<SmemByte>(placementIn(i, Space::SharedMemory).at(r, c).front().at).address;
}

} // namespace

TEST(Tma, EveryRankIsACatalogEntryWithItsDefaultBox) {
    for (int rank = 1; rank <= 5; ++rank) {
        const std::string spec = "cp.async.bulk.tensor." + std::to_string(rank) + "d";
        const Instruction* entry = Catalog::instance().instruction(spec);
        ASSERT_NE(entry, nullptr) << spec;
        EXPECT_TRUE(entry->operands.empty()) << "a copy has no register operands";
        EXPECT_TRUE(entry->hasSpace(Space::SharedMemory));
        EXPECT_TRUE(entry->hasSpace(Space::Global));
        EXPECT_EQ(validate(Selection{entry, {}}), "");
    }
}

// A 128-byte-wide box with the 128B swizzle lands exactly where wgmma's K-major 128B atom reads: the same
// smem::swizzleAddress, so a TMA box feeds that descriptor cell by cell.
TEST(Tma, A128ByteBoxWith128BSwizzleIsWgmmasKMajorAtom) {
    const auto i = instantiate(parsed("cp.async.bulk.tensor.2d --elem-bytes 2 --tensor 128x192 --box 8x64 "
                                      "swizzle=128B --origin 0,0"));
    const smem::SmemLayout atom = smem::SmemLayout::make(16, 8, 64, smem::Major::K, smem::Swizzle::B128);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 64; ++c)
            ASSERT_EQ(smemAt(*i, r, c), atom.address(r, c)) << r << "," << c;
    // Row 1, column 0: byte 128 of the dense box, chunk 0 XOR 1 -> chunk 1 of line 1.
    EXPECT_EQ(smemAt(*i, 1, 0), 128u + 16u);
}

TEST(Tma, GlobalCoordinatesFollowTheOriginAndFillIsAHole) {
    // 128 x 192 tensor, an 8 x 64 box at row 124, column 160: rows 128.. and columns 192.. are outside.
    const auto i = instantiate(parsed("cp.async.bulk.tensor.2d elem-bytes=2 tensor=128x192 box=8x64 "
                                      "origin=124,160"));
    const Placement& g = placementIn(*i, Space::Global);
    const GlobalElement e = std::get<GlobalElement>(g.at(1, 2).front().at);
    EXPECT_EQ(e.coord[1], 125u);
    EXPECT_EQ(e.coord[0], 162u);
    EXPECT_EQ(e.offset, (125 * 192 + 162) * 2);
    EXPECT_TRUE(g.at(4, 0).empty()) << "row 128 is outside the tensor";
    EXPECT_TRUE(g.at(0, 32).empty()) << "column 192 is outside the tensor";
    EXPECT_FALSE(g.at(3, 31).empty());
    // Fill still occupies its bytes of the box: the shared-memory placement has every cell.
    EXPECT_EQ(smemAt(*i, 4, 0), 4u * 128u);
    // Negative coordinates are fill too.
    const auto n = instantiate(parsed("cp.async.bulk.tensor.2d tensor=128x192 box=8x64 origin=-2,0"));
    EXPECT_TRUE(placementIn(*n, Space::Global).at(1, 0).empty());
    EXPECT_FALSE(placementIn(*n, Space::Global).at(2, 0).empty());
}

// A tensor map's dimension reaches 2^32 while a load's coordinates are .s32: the elements of a box that
// starts just below 2^31 lie above it, and each is named by its own coordinate and byte offset.
TEST(Tma, AnElementBeyond2To31IsNamedExactly) {
    const auto i = instantiate(parsed("cp.async.bulk.tensor.2d elem-bytes=2 tensor=2x4294967296 box=2x64 "
                                      "origin=0,2147483600"));
    const Placement& g = placementIn(*i, Space::Global);
    const GlobalElement last = std::get<GlobalElement>(g.at(1, 63).front().at);
    EXPECT_EQ(last.coord[0], 2147483663u) << "2^31 + 15";
    EXPECT_EQ(last.coord[1], 1u);
    EXPECT_EQ(last.offset, (std::int64_t{4294967296} + 2147483663) * 2);
    const GlobalElement first = std::get<GlobalElement>(g.at(0, 0).front().at);
    EXPECT_EQ(first.coord[0], 2147483600u);
    EXPECT_EQ(first.offset, std::int64_t{2147483600} * 2);
}

TEST(Tma, ElementStridesSkipElementsOfOuterDimensions) {
    // element-strides outermost first: every 2nd row; the innermost is ignored (the driver ignores it without
    // interleave).
    const auto i = instantiate(parsed("cp.async.bulk.tensor.2d tensor=64x64 box=8x32 element-strides=2,1"));
    EXPECT_EQ(placementIn(*i, Space::SharedMemory).rows(), 4);
    EXPECT_EQ(std::get<GlobalElement>(placementIn(*i, Space::Global).at(3, 0).front().at).coord[1], 6u);
}

// The walk over a box carries its index innermost first, across every dimension: each element's global
// coordinates are the origin plus its index times the element stride, and without a swizzle it sits at its
// row of the box (every dimension but the innermost, in order) times the row pitch plus its column.
TEST(Tma, TheBoxWalkCarriesAcrossEveryDimension) {
    const auto i = instantiate(parsed("cp.async.bulk.tensor.3d tensor=16x8x32 box=4x6x16 "
                                      "element-strides=2,3,1 origin=1,2,8"));
    const tma::TensorMap map = tma::mapOf(*i);
    ASSERT_EQ(map.loaded(0), 16);
    ASSERT_EQ(map.loaded(1), 2); // 6 elements, every 3rd
    ASSERT_EQ(map.loaded(2), 2); // 4 elements, every 2nd
    tma::BoxWalk walk(map);
    int n = 0;
    for (tma::BoxElement e; walk.next(e); ++n) {
        const std::array<int, 3> index{n % 16, n / 16 % 2, n / 32};
        ASSERT_EQ(e.boxIndex[0], index[0]) << "element " << n;
        ASSERT_EQ(e.boxIndex[1], index[1]) << "element " << n;
        ASSERT_EQ(e.boxIndex[2], index[2]) << "element " << n;
        ASSERT_FALSE(e.fill) << "element " << n;
        EXPECT_EQ(e.coord[0], map.origin[0] + index[0]) << "element " << n;
        EXPECT_EQ(e.coord[1], map.origin[1] + 3 * index[1]) << "element " << n;
        EXPECT_EQ(e.coord[2], map.origin[2] + 2 * index[2]) << "element " << n;
        EXPECT_EQ(e.smemOffset,
                  static_cast<std::uint32_t>(n / 16 * map.rowPitch() + index[0] * map.elementBytes()))
            << "element " << n;
    }
    EXPECT_EQ(n, 64);
    EXPECT_EQ(tma::boxElements(map).size(), 64u);
}

TEST(Tma, PtxTextGivesTheCoordinatesInnermostFirst) {
    const Selection s =
        parsed("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
               "[sA], [tmap, {64, 8}], [bar]; tensor=128x192 box=8x64");
    const tma::TensorMap* map = tma::tensorMapOf(s.params);
    ASSERT_NE(map, nullptr);
    EXPECT_EQ(map->origin[0], 64);
    EXPECT_EQ(map->origin[1], 8);
}

TEST(Tma, TheSpecTextOfAMapReadsBackAsTheSameMap) {
    const Selection s = parsed("cp.async.bulk.tensor.3d type=bf16 tensor=4x64x96 box=2x8x32 origin=1,3,32 "
                               "swizzle=64B strides=16384,256");
    const auto i = instantiate(s);
    const tma::TensorMap map = tma::mapOf(*i);
    EXPECT_EQ(map.swizzle, smem::Swizzle::B64);
    EXPECT_EQ(map.strides[2], 16384);
    const Selection again = parsed(tma::specText(map));
    EXPECT_EQ(again, s);
}

TEST(Tma, WhatTheEncoderRefusesIsNamedWithItsRange) {
    const std::string box = refusal("cp.async.bulk.tensor.2d tensor=512x512 box=8x257");
    EXPECT_NE(box.find("box dimension 0"), std::string::npos) << box;
    EXPECT_NE(box.find("1 to 256"), std::string::npos) << box;
    const std::string stride = refusal("cp.async.bulk.tensor.2d tensor=64x64 strides=136");
    EXPECT_NE(stride.find("stride of dimension 1"), std::string::npos) << stride;
    EXPECT_NE(stride.find("multiple of 16"), std::string::npos) << stride;
    const std::string rank = refusal("cp.async.bulk.tensor.2d tensor=4x64x64");
    EXPECT_NE(rank.find("rank-2 map needs 2"), std::string::npos) << rank;
    const std::string span = refusal("cp.async.bulk.tensor.2d tensor=64x256 box=8x128 swizzle=128B");
    EXPECT_NE(span.find("swizzle 128B spans 128 bytes"), std::string::npos) << span;
    EXPECT_NE(span.find("at most 128 bytes (box 64 elements or fewer)"), std::string::npos) << span;
    const std::string inner = refusal("cp.async.bulk.tensor.2d tensor=64x64 box=8x4");
    EXPECT_NE(inner.find("multiple of 16 bytes"), std::string::npos) << inner;
    const std::string elem = refusal("cp.async.bulk.tensor.2d elem-bytes=3");
    EXPECT_NE(elem.find("valid 1, 2, 4 or 8"), std::string::npos) << elem;
    const std::string unknown = refusal("cp.async.bulk.tensor.2d boxes=8x64");
    EXPECT_NE(unknown.find("unknown parameter 'boxes'"), std::string::npos) << unknown;
    EXPECT_NE(refusal("cp.async.bulk.tensor.2d.im2col").find("im2col"), std::string::npos);
}

TEST(Tma, JsonListsEveryBoxElementWithNullForFill) {
    const auto i =
        instantiate(parsed("cp.async.bulk.tensor.2d elem-bytes=2 tensor=128x192 box=8x64 swizzle=128B "
                           "origin=124,0"));
    std::string doc, error;
    ASSERT_TRUE(exportInstruction(*i, ExportFormat::Json, {}, doc, error)) << error;
    const nlohmann::json j = nlohmann::json::parse(doc);
    ASSERT_EQ(j["elements"].size(), 8u * 64u);
    EXPECT_EQ(j["fill_elements"], 4 * 64);
    const nlohmann::json& e = j["elements"][64 + 1]; // box row 1, column 1
    EXPECT_EQ(e["row"], 125);
    EXPECT_EQ(e["col"], 1);
    EXPECT_EQ(e["smem_offset"], smemAt(*i, 1, 1));
    const nlohmann::json& f = j["elements"][4 * 64];
    EXPECT_TRUE(f["row"].is_null());
    EXPECT_TRUE(f["col"].is_null());
    EXPECT_EQ(f["fill"], true);
    // Options for register operands are refused with what the box takes.
    ExportOptions lanes;
    lanes.lanes = {0};
    EXPECT_FALSE(exportInstruction(*i, ExportFormat::Json, lanes, doc, error));
    EXPECT_NE(error.find("no register operands"), std::string::npos) << error;
}

TEST(Tma, CsvHasALinePerElementAndCtaAsTheJsonHasThem) {
    // A box partly outside the tensor, a 3-d box, and a split multicast over two CTAs: every CSV line says
    // what the json says of that element (it was a header with no line: a box has no register operand).
    for (const char* spec :
         {"cp.async.bulk.tensor.2d elem-bytes=2 tensor=128x192 box=8x64 swizzle=128B origin=124,0",
          "cp.async.bulk.tensor.3d type=bf16 tensor=4x64x96 box=2x8x32 origin=1,3,32 swizzle=64B",
          "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::"
          "cluster "
          "tensor=64x64 box=8x16 cta-mask=0x5 multicast=split"}) {
        const auto i = instantiate(parsed(spec));
        std::string csv, doc, error;
        ASSERT_TRUE(exportInstruction(*i, ExportFormat::Csv, {}, csv, error)) << spec << ": " << error;
        ASSERT_TRUE(exportInstruction(*i, ExportFormat::Json, {}, doc, error)) << error;
        const nlohmann::json j = nlohmann::json::parse(doc);
        std::istringstream lines(csv);
        std::string line;
        std::getline(lines, line);
        EXPECT_EQ(line, "spec,box_row,box_col,cta,from_cta,smem_offset,row,col,coord,global_offset,fill");
        std::size_t count = 0;
        for (const nlohmann::json& e : j["elements"]) {
            const std::size_t holders = e.contains("ctas") ? e["ctas"].size() : 1;
            for (std::size_t k = 0; k < holders; ++k, ++count) {
                ASSERT_TRUE(std::getline(lines, line)) << spec << ": line " << count;
                std::vector<std::string> f;
                std::istringstream fields(line);
                for (std::string field; std::getline(fields, field, ',');)
                    f.push_back(field);
                if (line.back() == ',')
                    f.emplace_back();
                ASSERT_EQ(f.size(), 11u) << line;
                const auto text = [](const nlohmann::json& v) { return v.is_null() ? "" : v.dump(); };
                EXPECT_EQ(f[1], e["box"][0].dump()) << line;
                EXPECT_EQ(f[2], e["box"][1].dump()) << line;
                EXPECT_EQ(f[3], e.contains("ctas") ? e["ctas"][k].dump() : "") << line;
                EXPECT_EQ(f[4], e.contains("from_cta") ? text(e["from_cta"]) : "") << line;
                EXPECT_EQ(f[5], e["smem_offset"].dump()) << line;
                EXPECT_EQ(f[6], text(e["row"])) << line;
                EXPECT_EQ(f[7], text(e["col"])) << line;
                EXPECT_EQ(f[9], e.contains("global_offset") ? e["global_offset"].dump() : "") << line;
                EXPECT_EQ(f[10], e.contains("fill") ? "1" : "0") << line;
            }
        }
        EXPECT_FALSE(std::getline(lines, line)) << spec << ": a line too many: " << line;
        EXPECT_GT(count, 0u);
    }
}

TEST(Tma, TheSharedMemoryDiagramDrawsFillGrey) {
    const auto i = instantiate(parsed("cp.async.bulk.tensor.2d tensor=128x192 box=8x64 origin=126,0"));
    const Diagram d =
        buildSharedMemoryDiagram(placementIn(*i, Space::SharedMemory), &placementIn(*i, Space::Global));
    int grey = 0, grid = 0;
    for (const DiagramCell& c : d.cells)
        if (d.panels[c.panel].kind == PanelKind::SharedMemory) {
            ++grid;
            grey += c.fill == Rgb{0xd0, 0xd0, 0xd0};
        }
    EXPECT_EQ(grid, 8 * 64);
    EXPECT_EQ(grey, 6 * 64);
    std::string svg, error;
    ASSERT_TRUE(exportInstruction(*i, ExportFormat::Svg, {}, svg, error)) << error;
    EXPECT_NE(svg.find("<svg"), std::string::npos);
}

} // namespace test_tma

namespace test_tma {

// Found on an H200 (docs/tma.md#legality-study): a swizzled box narrower than its swizzle's span is not a
// trap; each row is padded to the span, and the swizzle acts on the padded address.
TEST(Tma, ABoxNarrowerThanItsSwizzleSpanHasRowsPaddedToTheSpan) {
    const auto i = instantiate(parsed("cp.async.bulk.tensor.2d tensor=64x128 box=8x32 swizzle=128B"));
    EXPECT_EQ(smemAt(*i, 0, 8), 16u);
    EXPECT_EQ(smemAt(*i, 1, 0), 128u + 16u); // row 1 starts at the next 128-byte line, chunk 0 ^ 1
    EXPECT_EQ(smemAt(*i, 2, 8), 256u + 48u); // chunk 1 ^ 2
    const tma::TensorMap map = tma::mapOf(*i);
    EXPECT_EQ(map.boxBytes(), 512);        // the transaction count
    EXPECT_EQ(map.footprintBytes(), 1024); // the shared memory it spans
    EXPECT_NE(placementIn(*i, Space::SharedMemory).presentation().extentFact.find("512 bytes loaded"),
              std::string::npos);
}

// Found on an H200: an innermost coordinate that is not 16-byte aligned traps (cudaErrorIllegalInstruction),
// swizzled or not, negative too; lanemap refuses it and says what would work.
TEST(Tma, AnInnermostCoordinateNotSixteenByteAlignedIsRefused) {
    const std::string why = refusal("cp.async.bulk.tensor.2d tensor=64x128 box=8x64 origin=0,3");
    EXPECT_NE(why.find("innermost coordinate 3 is 6 bytes"), std::string::npos) << why;
    EXPECT_NE(why.find("traps"), std::string::npos) << why;
    EXPECT_NE(why.find("e.g. 0 or 8"), std::string::npos) << why;
    EXPECT_NE(refusal("cp.async.bulk.tensor.2d tensor=64x128 box=8x64 origin=0,-3").find("e.g. -8 or 0"),
              std::string::npos);
    EXPECT_NE(
        refusal("cp.async.bulk.tensor.2d elem-bytes=1 tensor=64x256 box=8x128 origin=0,1").find("traps"),
        std::string::npos);
    EXPECT_EQ(refusal("cp.async.bulk.tensor.2d tensor=64x128 box=8x64 origin=0,8"), "");
    EXPECT_EQ(refusal("cp.async.bulk.tensor.2d tensor=64x128 box=8x64 origin=3,-16"), "");
}

} // namespace test_tma

#include <fstream>
#include <regex>
#include <sstream>

namespace test_tma {

namespace {

std::string recorded(const std::string& name) {
    std::ifstream in(std::string(LANEMAP_SOURCE_DIR) + "/docs/probe-runs/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The map a spec text names, read without lanemap's checks (the study ran maps lanemap refuses).
tma::TensorMap mapOfText(std::string text) {
    for (char& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::size_t d = text.find("d ");
    const int rank = text[d - 1] - '0';
    tma::TensorMap m;
    std::optional<smem::Swizzle> swizzle;
    const std::string why = tma::parseWords(text.substr(d + 2), rank, m, swizzle);
    if (!why.empty())
        throw std::runtime_error(why + ": " + text);
    m.swizzle = swizzle.value_or(smem::Swizzle::None);
    return m;
}

void expectDecodes(const tma::TensorMap& want, const std::array<std::uint8_t, 128>& bytes,
                   const std::string& what) {
    std::string error;
    const std::optional<tma::DecodedMap> got = tma::decodeTensorMap(bytes, error);
    ASSERT_TRUE(got) << what << ": " << error;
    const tma::TensorMap& m = got->map;
    EXPECT_EQ(m.rank, want.rank) << what;
    EXPECT_EQ(m.type, want.type) << what;
    EXPECT_EQ(m.swizzle, want.swizzle) << what;
    EXPECT_EQ(m.oob, want.oob) << what;
    EXPECT_EQ(m.l2, want.l2) << what;
    EXPECT_EQ(m.interleave, want.interleave) << what;
    for (int i = 0; i < want.rank; ++i) {
        const auto u = static_cast<std::size_t>(i);
        EXPECT_EQ(m.dims[u], want.dims[u]) << what << " dim " << i;
        EXPECT_EQ(m.strides[u], want.strides[u]) << what << " stride " << i;
        EXPECT_EQ(m.box[u], want.box[u]) << what << " box " << i;
        EXPECT_EQ(m.elementStrides[u], want.elementStrides[u]) << what << " element stride " << i;
    }
    EXPECT_TRUE(got->unknown.empty()) << what;
    EXPECT_NE(got->address, 0u) << what;
}

} // namespace

// Every map the driver encoded on the H200 decodes back to the parameters it was encoded from: the study's
// maps (128 bytes of hex per configuration) and the probe's (32-bit words in its findings).
TEST(TmaDecode, EveryMapTheDriverEncodedDecodesToItsParameters) {
    const std::string study = recorded("2026-11-27T1742-h200-tma-legality.txt");
    const std::regex block(R"(config: (.*)\n.*\nencode: CUresult 0\ntensormap: ([0-9a-f]{256}))");
    int maps = 0;
    for (std::sregex_iterator it(study.begin(), study.end(), block), end; it != end; ++it, ++maps) {
        std::string error;
        const auto bytes = tma::parseTensorMapHex((*it)[2].str(), error);
        ASSERT_TRUE(bytes) << error;
        expectDecodes(mapOfText((*it)[1].str()), *bytes, (*it)[1].str());
    }
    EXPECT_GE(maps, 30);
    const std::string probe = recorded("2026-11-27T1746-h200-tma-probe.txt");
    const std::regex finding(
        R"(\[(cp\.async\.bulk\.tensor[^\]]*)\]: all [0-9]+ bytes as placed; CUtensorMap words ([0-9a-f]{256}))");
    int boxes = 0;
    for (std::sregex_iterator it(probe.begin(), probe.end(), finding), end; it != end; ++it, ++boxes) {
        // 32-bit words as printed (%08x): little-endian in memory.
        std::string words = (*it)[2].str(), memory;
        for (std::size_t w = 0; w < 32; ++w)
            for (int b = 3; b >= 0; --b)
                memory += words.substr(8 * w + 2 * static_cast<std::size_t>(b), 2);
        std::string error;
        const auto bytes = tma::parseTensorMapHex(memory, error);
        ASSERT_TRUE(bytes) << error;
        expectDecodes(mapOfText((*it)[1].str()), *bytes, (*it)[1].str());
    }
    EXPECT_EQ(boxes, 44);
}

TEST(TmaDecode, APastedMapIsASpec) {
    // The study's 5-D map, as gdb's x/16gx prints it (64-bit words), pasted after the opcode without a rank.
    const std::string study = recorded("2026-11-27T1742-h200-tma-legality.txt");
    const std::size_t at = study.find("config: cp.async.bulk.tensor.5d");
    ASSERT_NE(at, std::string::npos);
    const std::size_t hex = study.find("tensormap: ", at) + 11;
    const std::string memory = study.substr(hex, 256);
    std::string words;
    for (std::size_t w = 0; w < 16; ++w) {
        std::string word;
        for (int b = 7; b >= 0; --b)
            word += memory.substr(16 * w + 2 * static_cast<std::size_t>(b), 2);
        words += (w ? "," : "") + std::string("0x") + word;
    }
    const Selection s = parsed("cp.async.bulk.tensor tensormap=" + words + " origin=1,0,2,1,16");
    const tma::TensorMap map = tma::mapOf(*instantiate(s));
    EXPECT_EQ(map.rank, 5);
    EXPECT_EQ(map.dims[0], 64);
    EXPECT_EQ(map.box[4], 2);
    EXPECT_EQ(map.elementStrides[2], 3);
    EXPECT_EQ(map.swizzle, smem::Swizzle::B64);
    EXPECT_EQ(map.l2, tma::L2Promotion::B256);
    std::string error;
    EXPECT_FALSE(tma::parseTensorMapHex("12 34", error));
    EXPECT_NE(error.find("128 bytes"), std::string::npos) << error;
    EXPECT_NE(refusal("cp.async.bulk.tensor tensormap=zz").find("not a hex digit"), std::string::npos);
}

} // namespace test_tma
