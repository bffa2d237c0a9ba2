// lanemap-tma-box: one tiled TMA load per process (docs/tma.md#legality), so a configuration that traps is a
// finding, not the end of a run. Reads the spec text's words without lanemap's checks (the point is to try
// what the encoder accepts), runs the load, compares the shared memory with lanemap's box, and prints one
// line: the spec, the encoder's answer, the CUDA error or "match" / the first differing byte, the box bytes
// in hex (--dump) and the encoded CUtensorMap. Exit 0 when it ran and matched, 1 otherwise, 2 for usage.
#include "methods/tma_box/run_box.hpp"
#include "methods/tma_box/tma_box.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"

#include <cctype>
#include <cstdio>
#include <iostream>
#include <string>

using namespace lanemap;

namespace {

// A multicast load (cta-mask=...; docs/tma.md#multicast): the cluster runs it, and each CTA's shared memory
// is compared with what lanemap's placement says that CTA holds (SmemByte::cta), every CTA outside the mask
// untouched (0xA5). The spec goes through lanemap's own checks: these are the configurations it draws.
int runCluster(int rank, const std::string& words) {
    const std::string spec = "cp.async.bulk.tensor." + std::to_string(rank) + "d " + words;
    const ParsedSpec parsed = parseSpec(spec, Catalog::instance());
    if (!parsed) {
        std::cerr << "lanemap-tma-box: " << parsed.error << '\n';
        return 2;
    }
    const Selection selection = selectionOf(parsed);
    if (const std::string why = validate(selection); !why.empty()) {
        std::cerr << "lanemap-tma-box: " << why << '\n';
        return 2;
    }
    const std::shared_ptr<const Instruction> in = instantiate(selection);
    const tma::TensorMap map = tma::mapOf(*in);
    std::vector<std::uint8_t> tensor(static_cast<std::size_t>(gpu::tmabox::tensorBytes(map)));
    for (std::size_t b = 0; b < tensor.size(); ++b)
        tensor[b] = gpu::tmabox::tensorByte(static_cast<std::int64_t>(b));
    const gpu::tmabox::ClusterRun run = gpu::tmabox::runMulticast(map, tensor);
    std::printf("config: %s\n", tma::specText(map).c_str());
    std::printf("encode: CUresult %d\n", run.encodeStatus);
    if (!run.error.empty()) {
        std::printf("result: error: %s\n", run.error.c_str());
        return 1;
    }
    const std::vector<std::vector<std::uint8_t>> expected =
        gpu::tmabox::clusterImages(*in, run.images.empty() ? 0 : run.images.front().size());
    bool all = true;
    for (std::size_t cta = 0; cta < expected.size(); ++cta) {
        std::size_t differ = 0, first = 0;
        for (std::size_t b = 0; b < expected[cta].size(); ++b)
            if (expected[cta][b] != run.images[cta][b] && differ++ == 0)
                first = b;
        all = all && differ == 0;
        if (differ)
            std::printf(
                "cta %zu: %zu of %zu bytes differ from lanemap's placement, first at byte %zu (expected "
                "0x%02x, read 0x%02x)\n",
                cta, differ, expected[cta].size(), first, expected[cta][first], run.images[cta][first]);
        else
            std::printf("cta %zu: all %zu bytes as lanemap places them\n", cta, expected[cta].size());
    }
    std::printf("result: %s\n", all ? "ran; every CTA as lanemap places it" : "ran; differs");
    return all ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: lanemap-tma-box [--dump] RANK WORDS...  (e.g. 2 elem-bytes=2 tensor=64x128 "
                     "box=8x32 swizzle=128B; with cta-mask=M [cluster=N] [multicast=split]: a multicast in a "
                     "cluster, compared CTA by CTA)\n";
        return 2;
    }
    int arg = 1;
    const bool dump = std::string(argv[arg]) == "--dump";
    arg += dump;
    const int rank = std::atoi(argv[arg++]);
    std::string words;
    for (; arg < argc; ++arg)
        words += std::string(argv[arg]) + " ";
    for (char& ch : words) // the grammar's words are read in lower case, as parseSpec gives them
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (words.find("cta-mask") != std::string::npos)
        return runCluster(rank, words);
    tma::TensorMap map;
    std::optional<smem::Swizzle> swizzle;
    if (std::string why = tma::parseWords(words, rank, map, swizzle); !why.empty()) {
        std::cerr << "lanemap-tma-box: " << why << '\n';
        return 2;
    }
    map.swizzle = swizzle.value_or(smem::Swizzle::None);
    const std::string encodingRule = tma::checkEncoding(map), loadRule = tma::checkLoad(map);
    std::vector<std::uint8_t> tensor(static_cast<std::size_t>(gpu::tmabox::tensorBytes(map)));
    for (std::size_t b = 0; b < tensor.size(); ++b)
        tensor[b] = gpu::tmabox::tensorByte(static_cast<std::int64_t>(b));
    const gpu::tmabox::BoxRun run = gpu::tmabox::runBox(map, tensor);
    std::printf("config: %s\n", tma::specText(map).c_str());
    std::printf("lanemap: %s\n",
                encodingRule.empty() && loadRule.empty()
                    ? "accepts"
                    : ("refuses: " + (encodingRule.empty() ? loadRule : encodingRule)).c_str());
    std::printf("encode: CUresult %d\n", run.encodeStatus);
    std::string hex;
    for (const std::uint8_t b : run.encoded) {
        char buf[4];
        std::snprintf(buf, sizeof buf, "%02x", b);
        hex += buf;
    }
    std::printf("tensormap: %s\n", hex.c_str());
    if (!run.error.empty()) {
        std::printf("result: error: %s\n", run.error.c_str());
        return 1;
    }
    // lanemap's box, computed directly (the map may be one lanemap refuses).
    std::vector<std::uint8_t> expected(run.image.size(), 0xA5);
    for (const tma::BoxElement& e : tma::boxElements(map))
        for (int k = 0; k < map.elementBytes(); ++k)
            if (e.smemOffset + static_cast<std::uint32_t>(k) < expected.size())
                expected[e.smemOffset + static_cast<std::uint32_t>(k)] =
                    e.fill ? 0 : gpu::tmabox::tensorByte(e.globalOffset + k);
    std::size_t differ = 0, first = 0;
    for (std::size_t b = 0; b < expected.size(); ++b)
        if (expected[b] != run.image[b] && differ++ == 0)
            first = b;
    if (differ)
        std::printf(
            "result: ran; %zu of %zu bytes differ from lanemap's box, first at byte %zu (expected 0x%02x, "
            "read 0x%02x)\n",
            differ, expected.size(), first, expected[first], run.image[first]);
    else
        std::printf("result: ran; all %zu bytes as lanemap places them\n", expected.size());
    if (dump) {
        std::string bytes;
        for (const std::uint8_t b : run.image) {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%02x", b);
            bytes += buf;
        }
        std::printf("smem: %s\n", bytes.c_str());
    }
    return differ ? 1 : 0;
}
