// The tma-box method's plan, simulator and interpretation (tma_box.hpp), CUDA-free.
#include "methods/tma_box/tma_box.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"

#include <cstdio>
#include <stdexcept>

namespace lanemap::gpu::tmabox {

std::int64_t tensorBytes(const tma::TensorMap& m) {
    std::int64_t end = m.elementBytes();
    for (int i = 0; i < m.rank; ++i)
        end += (m.dims[static_cast<std::size_t>(i)] - 1) *
               (i == 0 ? m.elementBytes() : m.strides[static_cast<std::size_t>(i)]);
    return end;
}

std::size_t Plan::outWords() const {
    std::size_t n = 0;
    for (const Config& c : configs)
        n += c.imageWords() + kMapWords;
    return n;
}

std::vector<std::string> catalogSpecs(int rank) {
    std::vector<std::string> specs;
    const std::string op = "cp.async.bulk.tensor." + std::to_string(rank) + "d ";
    if (rank == 2) {
        // Every element size x every swizzle, the box's inner extent the swizzle's span (128 bytes without
        // one), at the origin and across the bottom-right corner.
        for (const int eb : {1, 2, 4})
            for (const int span : {0, 32, 64, 128}) {
                const int inner = (span ? span : 128) / eb;
                const std::string sw = span ? std::to_string(span) + "B" : "none";
                const std::string base = op + "elem-bytes=" + std::to_string(eb) + " tensor=40x" +
                                         std::to_string(3 * inner) + " box=8x" + std::to_string(inner) +
                                         " swizzle=" + sw;
                specs.push_back(base + " origin=0,0");
                specs.push_back(base + " origin=36," + std::to_string(3 * inner - inner / 2));
            }
        // Boxes narrower than their swizzle's span: each row padded to the span.
        specs.push_back(op + "elem-bytes=2 tensor=40x96 box=8x32 swizzle=128B origin=0,0");
        specs.push_back(op + "elem-bytes=2 tensor=40x96 box=8x32 swizzle=128B origin=36,80");
        specs.push_back(op + "elem-bytes=1 tensor=40x96 box=8x16 swizzle=64B origin=4,16");
        specs.push_back(op + "elem-bytes=4 tensor=40x32 box=8x4 swizzle=32B origin=0,28");
        specs.push_back(op + "elem-bytes=2 tensor=40x96 box=6x16 swizzle=128B origin=2,8");
        // Other shapes: a tall box, an odd row count, an inner extent of 16 bytes, a box wider than the
        // tensor, negative coordinates, an element stride along the rows, an unaligned outer origin.
        specs.push_back(op + "elem-bytes=2 tensor=300x64 box=256x8 origin=10,8");
        specs.push_back(op + "elem-bytes=2 tensor=64x128 box=5x64 swizzle=128B origin=3,64");
        specs.push_back(op + "elem-bytes=4 tensor=64x64 box=16x4 swizzle=none origin=1,4");
        specs.push_back(op + "elem-bytes=2 tensor=6x40 box=16x64 origin=0,0");
        specs.push_back(op + "elem-bytes=2 tensor=64x128 box=8x64 swizzle=128B origin=-3,-16");
        specs.push_back(op +
                        "elem-bytes=2 tensor=64x128 box=16x64 element-strides=2,1 swizzle=128B origin=4,0");
        specs.push_back(op + "elem-bytes=1 tensor=64x256 strides=272 box=8x128 swizzle=128B origin=5,128");
        // (No tf32 map: a TFLOAT32 map rounds the values it loads, which a byte comparison of placements
        // cannot tell from a misplaced byte; its placement is f32's. docs/tma.md#legality-study.)
        specs.push_back(op + "type=s32 tensor=1000x2000 box=256x32 swizzle=128B origin=744,1968");
    } else if (rank == 1) {
        specs.push_back(op + "elem-bytes=2 tensor=200 box=64 origin=0");
        specs.push_back(op + "elem-bytes=4 tensor=100 box=32 swizzle=128B origin=80");
        specs.push_back(op + "elem-bytes=1 tensor=64 box=256 origin=-16");
    } else if (rank == 3) {
        specs.push_back(op + "elem-bytes=2 tensor=3x20x96 box=2x8x64 swizzle=128B origin=2,16,64");
        specs.push_back(op + "elem-bytes=4 tensor=4x16x16 box=4x4x8 swizzle=32B origin=0,0,0");
    } else if (rank == 4) {
        specs.push_back(op + "elem-bytes=2 tensor=2x3x8x64 box=2x2x4x32 swizzle=64B origin=1,2,6,48");
    } else if (rank == 5) {
        specs.push_back(op + "elem-bytes=1 tensor=2x2x2x4x64 box=2x2x2x2x32 swizzle=32B origin=1,0,1,3,48");
    }
    return specs;
}

Config configOf(const std::string& spec) {
    const ParsedSpec parsed = parseSpec(spec, Catalog::instance());
    if (!parsed)
        throw std::invalid_argument(parsed.error);
    const Selection selection = selectionOf(parsed);
    Config c;
    c.instance = instantiate(selection);
    c.map = tma::mapOf(*c.instance);
    c.spec = tma::specText(c.map);
    const Placement* shared = nullptr;
    const Placement* global = nullptr;
    for (const Placement& p : c.instance->placements) {
        if (p.space() == Space::SharedMemory && !shared)
            shared = &p;
        else if (p.space() == Space::Global && !global)
            global = &p;
    }
    if (!shared || !global)
        throw std::logic_error("a TMA instance has a shared-memory and a global placement");
    // The footprint and 1 KiB past it (what the kernel reads back): 0xA5 where no element lands. The probe
    // runs one CTA and one load: a multicast's other CTAs and a split's other loads are lanemap-tma-box's.
    if (c.map.ctaMask != 0)
        throw std::invalid_argument("the probe runs one CTA's load; a multicast runs in lanemap-tma-box");
    c.expected.assign(static_cast<std::size_t>(c.map.footprintBytes()) + 1024, 0xA5);
    for (int r = 0; r < shared->rows(); ++r)
        for (int col = 0; col < shared->cols(); ++col) {
            for (const Holding& h : shared->at(r, col)) {
                const SmemByte& s = std::get<SmemByte>(h.at);
                const std::vector<Holding> g = global->at(r, col);
                for (int k = 0; k < s.bits / 8; ++k)
                    c.expected[s.address + static_cast<std::uint32_t>(k)] =
                        g.empty() ? 0 : tensorByte(std::get<GlobalElement>(g.front().at).offset + k);
            }
        }
    return c;
}

std::vector<std::vector<std::uint8_t>> clusterImages(const Instruction& instance, std::size_t span) {
    const Placement* shared = instance.placement(Space::SharedMemory, Operand::D);
    const Placement* global = instance.placement(Space::Global, Operand::D);
    if (!shared || !global)
        throw std::logic_error("a TMA instance has a shared-memory and a global placement");
    std::vector<std::vector<std::uint8_t>> images(static_cast<std::size_t>(shared->clusterCtas()),
                                                  std::vector<std::uint8_t>(span, 0xA5));
    for (int r = 0; r < shared->rows(); ++r)
        for (int col = 0; col < shared->cols(); ++col) {
            const std::vector<Holding> g = global->at(r, col);
            for (const Holding& h : shared->at(r, col)) {
                const SmemByte& s = std::get<SmemByte>(h.at);
                std::vector<std::uint8_t>& image = images[static_cast<std::size_t>(s.cta)];
                for (int k = 0; k < s.bits / 8; ++k)
                    if (s.address + static_cast<std::uint32_t>(k) < image.size())
                        image[s.address + static_cast<std::uint32_t>(k)] =
                            g.empty() ? 0 : tensorByte(std::get<GlobalElement>(g.front().at).offset + k);
            }
        }
    return images;
}

Plan planProbe(const Instruction& instruction) {
    Plan plan;
    plan.instruction = &instruction;
    // cp.async.bulk.tensor.<rank>d
    const int rank = instruction.spec.size() >= 2 ? instruction.spec[instruction.spec.size() - 2] - '0' : 0;
    for (const std::string& spec : catalogSpecs(rank))
        plan.configs.push_back(configOf(spec));
    return plan;
}

std::vector<std::uint32_t> simulate(const Plan& plan) {
    std::vector<std::uint32_t> raw;
    raw.reserve(plan.outWords());
    for (const Config& c : plan.configs) {
        for (std::size_t w = 0; w < c.imageWords(); ++w) {
            std::uint32_t word = 0;
            for (std::size_t b = 0; b < 4; ++b) {
                const std::size_t at = 4 * w + b;
                word |= static_cast<std::uint32_t>(at < c.expected.size() ? c.expected[at] : 0) << (8 * b);
            }
            raw.push_back(word);
        }
        raw.insert(raw.end(), kMapWords, 0u); // the encoded map: the driver's, not predicted
    }
    return raw;
}

namespace {
std::string hexByte(unsigned v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", v);
    return buf;
}
} // namespace

Interpretation interpret(const Plan& plan, std::span<const std::uint32_t> raw) {
    Interpretation out;
    ProbeResult& r = out.result;
    r.spec = plan.instruction->spec;
    r.experiments = static_cast<int>(plan.configs.size());
    if (raw.size() < plan.outWords()) {
        r.verdict = Verdict::Unsupported;
        r.reason = "the device returned " + std::to_string(raw.size()) + " words, the plan needs " +
                   std::to_string(plan.outWords());
        return out;
    }
    std::size_t at = 0;
    for (std::size_t i = 0; i < plan.configs.size(); ++i) {
        const Config& c = plan.configs[i];
        auto byteAt = [&](std::size_t b) { return (raw[at + b / 4] >> (8 * (b % 4))) & 0xffu; };
        int differ = 0;
        std::size_t first = 0;
        for (std::size_t b = 0; b < c.expected.size(); ++b)
            if (byteAt(b) != c.expected[b] && differ++ == 0)
                first = b;
        r.cellsChecked += static_cast<int>(c.expected.size());
        r.cellsMismatched += differ;
        std::string map;
        for (std::size_t w = 0; w < kMapWords; ++w) {
            char buf[12];
            std::snprintf(buf, sizeof buf, "%08x", raw[at + c.imageWords() + w]);
            map += buf;
        }
        if (differ) {
            ProbeMismatch m;
            m.operand = Operand::D;
            m.row = static_cast<int>(first);
            m.experiment = c.spec;
            m.expected = "byte " + std::to_string(first) + " = " + hexByte(c.expected[first]);
            m.observed = hexByte(byteAt(first));
            r.mismatches.push_back(m);
        }
        r.findings.push_back("box " + std::to_string(i) + " [" + c.spec + "]: " +
                             (differ ? std::to_string(differ) + " of " + std::to_string(c.expected.size()) +
                                           " bytes differ, first at byte " + std::to_string(first) +
                                           " (expected " + hexByte(c.expected[first]) + ", read " +
                                           hexByte(byteAt(first)) + ")"
                                     : "all " + std::to_string(c.expected.size()) + " bytes as placed") +
                             "; CUtensorMap words " + map);
        at += c.imageWords() + kMapWords;
    }
    r.verdict = r.cellsMismatched == 0 ? Verdict::Pass : Verdict::Fail;
    return out;
}

} // namespace lanemap::gpu::tmabox
