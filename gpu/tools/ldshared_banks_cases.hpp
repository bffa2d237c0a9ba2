#pragma once
// The cases lanemap-ldshared-banks measures (gpu/tools/ldshared_banks.cu, docs/ldshared-banks.md) and the
// addresses one warp loads in each: one ld.shared.b32/.v2.b32/.v4.b32 of a tiled copy, exactly as the engine
// computes it (tiled_copy::analyze, the code behind `lanemap-cli banks ld.shared... --feeds ...
// --atom-layout ...`), with the model's wavefronts. A tiled copy never has two threads of a warp read one
// address (each holds its own elements), so the broadcasts are three synthetic warps whose addresses are a
// formula, counted by the same routine (banks::countPhase). CUDA-free: the tool and the tests share it.
#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"
#include "lanemap/tiled_copy.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanemap::ldshared_banks {

struct Case {
    int bytes = 4;                 // 4: ld.shared.b32, 8: .v2.b32, 16: .v4.b32
    const char* operand = "";      // "A" or "B" of mma.m16n8k16.f16's tile; "" for a synthetic warp
    const char* atoms = "";        // --atom-layout
    const char* permutation;       // --permutation
    const char* smem = "";         // --smem (the operand tile's placement)
    int warp = 0, instruction = 0; // which ld.shared of the copy the warp runs: warp w's #j
    std::uint32_t (*synthetic)(int lane) = nullptr; // a synthetic warp's address of each lane
    const char* why = "";                           // what the case separates
};

inline constexpr const char* kConsumer = "mma.m16n8k16.f16";
inline constexpr const char* kPermB2 = "_32,_16,(_2,_4,_2):(_1,_4,_2)";       // B: k 4t..4t+3 per thread
inline constexpr const char* kPermB4 = "_32,_16,(_2,_4,_2,_2):(_1,_8,_2,_4)"; // B: k 8t..8t+7 per thread

// The set: b32 conflict-free, 2-, 4-, 8-way and under swizzles; v2 (half-warp phases) conflict-free and
// conflicted, one placement where a phase of the whole warp would count fewer wavefronts than two half-warps;
// v4 (quarter-warp phases) conflict-free, conflicted, at pitch 80 B and swizzled; broadcasts.
inline const std::vector<Case>& cases() {
    static const std::vector<Case> set = {
        {4, "A", "(2,2,1)", "", "row-major", 0, 0, nullptr,
         "b32, pitch 32 B: lanes 16.. meet lanes 0.. (2-way)"},
        {4, "A", "(2,2,1)", "", "row-major,pad=16", 0, 0, nullptr, "b32, a 16-byte pad: conflict-free"},
        {4, "A", "(2,2,1)", "_32,_16,_32", "row-major", 0, 0, nullptr, "b32, pitch 64 B: 4-way"},
        {4, "A", "(2,2,1)", "_32,_16,_64", "row-major", 0, 0, nullptr, "b32, pitch 128 B: 8-way"},
        {4, "A", "(2,2,1)", "_32,_16,_64", "row-major,mode=128B", 0, 0, nullptr,
         "b32, pitch 128 B, 128B swizzle: conflict-free"},
        {4, "A", "(2,2,1)", "_32,_16,_64", "row-major,swizzle=1,3,3", 0, 0, nullptr,
         "b32, pitch 128 B, Swizzle<1,3,3>: 4-way"},
        {4, "B", "(2,2,1)", kPermB2, "col-major", 0, 0, nullptr, "b32 of B: n and n + 4 meet (2-way)"},
        {8, "B", "(2,2,1)", kPermB2, "col-major", 0, 0, nullptr, "v2: each half-warp 128 distinct bytes"},
        {8, "B", "(2,2,1)", kPermB2, "col-major,pitch=64", 0, 0, nullptr, "v2, pitch 64 B: 2-way per half"},
        {8, "B", "(2,2,1)", kPermB2, "col-major,pitch=128", 0, 0, nullptr, "v2, pitch 128 B: 4-way per half"},
        {8, "B", "(2,2,1)", kPermB2, "col-major,pitch=128,mode=128B", 0, 0, nullptr,
         "v2: half-warps 2-way each (4); one phase of 32 would count 2"},
        {16, "B", "(2,2,1)", kPermB4, "col-major", 0, 0, nullptr, "v4: quarter-warps conflict-free"},
        {16, "B", "(2,2,1)", kPermB4, "col-major,pitch=80", 0, 0, nullptr,
         "v4, pitch 80 B: 2-way per quarter (8); one phase of 32 would count 4"},
        {16, "B", "(2,2,1)", kPermB4, "col-major,pitch=128", 0, 0, nullptr, "v4, pitch 128 B: 2-way"},
        {16, "B", "(2,2,1)", kPermB4, "col-major,pitch=128,swizzle=3,3,3", 0, 0, nullptr,
         "v4, pitch 128 B, Swizzle<3,3,3>: n = 1 stays on chunks 0..3, 2-way"},
        {16, "B", "(2,2,1)", kPermB4, "col-major,pitch=128,swizzle=1,5,1", 0, 0, nullptr,
         "v4, pitch 128 B, Swizzle<1,5,1>: n = 1 on chunks 4..7, conflict-free"},
        {16, "B", "(2,2,1)", kPermB4, "col-major,pitch=256", 0, 0, nullptr, "v4, pitch 256 B: 2-way"},
        {16, "B", "(2,2,1)", kPermB4, "col-major,pitch=256,mode=128B", 0, 0, nullptr,
         "v4: quarter-warps 2-way each (8); one phase of 32 would count 4"},
        {4, "", "", "", "", 0, 0, [](int) { return 0u; }, "b32, every lane one word: a broadcast"},
        {8, "", "", "", "", 0, 0, [](int lane) { return 8u * static_cast<std::uint32_t>(lane / 2); },
         "v2, lanes 2i and 2i + 1 one address"},
        {16, "", "", "", "", 0, 0, [](int) { return 0u; },
         "v4, every lane one address: one wavefront per quarter-warp phase"},
    };
    return set;
}

// What one case's warp loads and what the model says of it.
struct Warp {
    std::array<std::uint32_t, 32> offsets{}; // each lane's byte address (from the tile's start)
    std::vector<int> phaseDegrees;           // wavefronts of each phase (128 / bytes lanes each)
    int wavefronts = 0, ideal = 0;
    // The same addresses counted as one phase of 32 threads (what a model without the half- and
    // quarter-warp split would say), at least the ideal: where it differs, the measurement picks one.
    int wholeWarp = 0;
};

inline std::optional<Warp> warpOf(const Case& c, std::string& error) {
    std::vector<banks::RowAccess> accesses(32);
    if (c.synthetic) {
        for (int lane = 0; lane < 32; ++lane) {
            accesses[static_cast<std::size_t>(lane)].thread = lane;
            accesses[static_cast<std::size_t>(lane)].address = c.synthetic(lane);
        }
    } else {
        const ParsedSpec parsed = parseSpec(kConsumer, Catalog::instance());
        std::optional<tile::TileLayout> layout = tile::parseTileLayout(c.atoms, c.permutation, error);
        const std::optional<banks::Placement> placement = banks::parsePlacement(c.smem, error);
        const std::optional<Operand> operand = parseOperand(c.operand);
        if (!parsed || !layout || !placement || !operand) {
            if (error.empty())
                error = "not a case: " + std::string(c.operand) + " of " + kConsumer;
            return std::nullopt;
        }
        Selection s = selectionOf(parsed);
        s.params.tile = *layout;
        if (const std::string why = validate(s); !why.empty()) {
            error = why;
            return std::nullopt;
        }
        const auto tile = instantiate(s);
        const std::optional<tiled_copy::Result> r =
            tiled_copy::analyze(tiled_copy::SharedLoad{c.bytes}, *tile, *operand, *placement, error);
        if (!r)
            return std::nullopt;
        const auto copy = std::find_if(r->copies.begin(), r->copies.end(), [&](const tiled_copy::Copy& k) {
            return k.warp == c.warp && k.instruction == c.instruction;
        });
        if (copy == r->copies.end()) {
            error = "the copy has no ld.shared #" + std::to_string(c.instruction) + " of warp " +
                    std::to_string(c.warp);
            return std::nullopt;
        }
        for (const banks::Phase& ph : copy->phases)
            for (const banks::RowAccess& a : ph.rows) {
                const int lane = a.thread - 32 * c.warp;
                accesses[static_cast<std::size_t>(lane)] = a;
                accesses[static_cast<std::size_t>(lane)].thread = lane;
                accesses[static_cast<std::size_t>(lane)].address = a.address - r->placement.start;
            }
    }
    Warp w;
    const int perPhase = 128 / c.bytes;
    for (int lane = 0; lane < 32; lane += perPhase) {
        const banks::Phase ph = banks::countPhase(
            lane / perPhase,
            std::vector<banks::RowAccess>(accesses.begin() + lane, accesses.begin() + lane + perPhase),
            c.bytes);
        w.phaseDegrees.push_back(ph.degree);
        w.wavefronts += ph.degree;
        w.ideal += 1;
    }
    w.wholeWarp = std::max(banks::countPhase(0, accesses, c.bytes).degree, w.ideal);
    for (int lane = 0; lane < 32; ++lane)
        w.offsets[static_cast<std::size_t>(lane)] = accesses[static_cast<std::size_t>(lane)].address;
    return w;
}

} // namespace lanemap::ldshared_banks
