// The tensor-memory method's interpretation (tensor_memory.hpp): the codes that came back, read into
// placements and compared with the engine's, cell by cell.
#include "tensor_memory.hpp"

#include <bit>
#include <cmath>
#include <cstdio>

namespace lanemap::gpu::tc {

namespace {

constexpr std::size_t kMaxMismatches = 200;

std::string hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

std::string cellName(int lane, int column) {
    return "lane " + std::to_string(lane) + " column " + std::to_string(column);
}

// A cell code's 16 bits as "lane L column C".
std::string describeCell16(std::uint32_t code) {
    return cellName(static_cast<int>(code >> 9 & 0x7f), static_cast<int>(code & 0x1ff));
}
// A whole cell word; a word whose halves disagree is no code.
std::string describeCellWord(std::uint32_t word) {
    const std::uint32_t lo = word & 0xffffu;
    if ((word >> 16) != (~lo & 0xffffu))
        return "a word that is no cell code (" + hex(word) + ")";
    return describeCell16(lo);
}

std::string describeRegister16(std::uint32_t code, bool packed) {
    if (code & 0x8000u)
        return "nothing written (the sentinel)";
    return "warp " + std::to_string(code >> 13 & 3) + " thread " + std::to_string(code >> 8 & 31) +
           " register " + std::to_string(code >> 1 & 127) +
           (packed ? (code & 1 ? " bits 31-16" : " bits 15-0") : "");
}

void add(ProbeResult& r, ProbeMismatch m) {
    ++r.cellsMismatched;
    if (r.mismatches.size() < kMaxMismatches)
        r.mismatches.push_back(std::move(m));
}

void interpretLd(const Plan& plan, std::span<const std::uint32_t> raw, ProbeResult& r) {
    const tmem::Access& a = *plan.access;
    const int regs = tmem::registersOf(a);
    const int halves = tmem::elementsPerRegister(a);
    std::size_t at = 0;
    for (const Experiment& x : plan.experiments)
        for (int w = 0; w < 4; ++w)
            for (int reg = 0; reg < regs; ++reg)
                for (int t = 0; t < 32; ++t, ++at)
                    for (int h = 0; h < halves; ++h) {
                        const tmem::Cell c = tmem::cellOf(a, t, reg, h);
                        const int lane = 32 * w + x.laneOffset + c.lane;
                        const std::uint32_t want = cellCode(lane, c.column);
                        const std::uint32_t got = raw[at];
                        ++r.cellsChecked;
                        const bool ok =
                            a.packed ? (got >> (16 * h) & 0xffffu) == (want & 0xffffu) : got == want;
                        if (ok)
                            continue;
                        ProbeMismatch m;
                        m.operand = Operand::D;
                        m.row = c.lane;
                        m.col = c.column;
                        m.thread = t;
                        m.index = reg * halves + h;
                        m.experiment = x.label + ", warp " + std::to_string(w);
                        const std::string reg_ = "thread " + std::to_string(t) + " register " +
                                                 std::to_string(reg) +
                                                 (a.packed ? (h ? " bits 31-16" : " bits 15-0") : "");
                        m.expected = reg_ + " holds " + cellName(lane, c.column);
                        m.observed =
                            reg_ + " holds " +
                            (a.packed ? describeCell16(got >> (16 * h) & 0xffffu) : describeCellWord(got));
                        add(r, std::move(m));
                    }
}

void interpretSt(const Plan& plan, std::span<const std::uint32_t> raw, std::span<const std::uint32_t> want,
                 ProbeResult& r) {
    const tmem::Access& a = *plan.access;
    const std::size_t cells = static_cast<std::size_t>(tmem::kLanes * plan.columns);
    for (std::size_t xi = 0; xi < plan.experiments.size(); ++xi)
        for (int column = 0; column < plan.columns; ++column)
            for (int lane = 0; lane < tmem::kLanes; ++lane) {
                const std::size_t at = xi * cells + static_cast<std::size_t>(column * tmem::kLanes + lane);
                const std::uint32_t w = want[at], g = raw[at];
                ++r.cellsChecked;
                // .unpack::16b: the low 16 bits are the element (the high ones are not the probe's question).
                const bool written = w != kSentinel;
                const bool ok = (written && a.packed) ? (g & 0xffffu) == w : g == w;
                if (ok)
                    continue;
                ProbeMismatch m;
                m.operand = Operand::A;
                m.row = lane;
                m.col = column;
                m.experiment = plan.experiments[xi].label;
                const auto describe = [&](std::uint32_t v) {
                    return v == kSentinel ? std::string("nothing written (the sentinel)")
                                          : describeRegister16(v & 0xffffu, a.packed);
                };
                m.expected = cellName(lane, column) + " holds " + describe(w);
                m.observed = cellName(lane, column) + " holds " + describe(g);
                if (written)
                    m.thread = static_cast<int>(w >> 8 & 31);
                add(r, std::move(m));
            }
}

// One experiment's digit from a D word; -1 when the word is no digit (nothing written, not an integer).
int digitFrom(const tmem::MmaShape& s, int bits, std::uint32_t word) {
    if (word == kSentinel)
        return -1;
    double v = 0;
    if (s.kind == tmem::MmaKind::I8)
        v = static_cast<std::int32_t>(word);
    else
        v = std::bit_cast<float>(word);
    if (!(v >= 0) || v >= (1 << bits) || v != std::floor(v))
        return -1;
    return static_cast<int>(v);
}

void interpretMma(const Plan& plan, std::span<const std::uint32_t> raw, ProbeResult& r) {
    const tmem::MmaShape& s = *plan.mma;
    const std::size_t cells = static_cast<std::size_t>(tmem::kLanes * plan.columns);
    const std::size_t perExperiment = cells * static_cast<std::size_t>(s.ctaGroup);
    // What the layout puts in every cell: element m * N + n, or -1.
    std::vector<int> expected(perExperiment, -1);
    for (int m = 0; m < s.m; ++m)
        for (int n = 0; n < s.n; ++n) {
            const tmem::Placement p = tmem::placeD(s, m, n);
            expected[static_cast<std::size_t>(p.cta) * cells +
                     static_cast<std::size_t>(p.column * tmem::kLanes + p.lane)] = m * s.n + n;
        }
    const auto where = [&](std::size_t cell) {
        const int cta = static_cast<int>(cell / cells);
        const int column = static_cast<int>(cell % cells) / tmem::kLanes;
        const int lane = static_cast<int>(cell % cells) % tmem::kLanes;
        return (s.ctaGroup == 2 ? "CTA " + std::to_string(cta) + " " : std::string()) +
               cellName(lane, column);
    };
    // Each source of A on its own: the experiments with A in shared memory, then those with A in Tensor
    // Memory.
    for (const ASource source : {ASource::SharedMemory, ASource::TensorMemory})
        for (std::size_t cell = 0; cell < perExperiment; ++cell) {
            // Every experiment's digit, assembled into the observed m and n.
            int index[2] = {0, 0};
            bool written = false, coded = true, any = false;
            for (std::size_t xi = 0; xi < plan.experiments.size(); ++xi) {
                const Experiment& x = plan.experiments[xi];
                if (x.aSource != source)
                    continue;
                any = true;
                const std::uint32_t word = raw[xi * perExperiment + cell];
                written |= word != kSentinel;
                const int d = digitFrom(s, plan.digitBits, word);
                if (d < 0)
                    coded = false;
                else
                    index[x.axis == Axis::Columns] |= d << (x.digit * plan.digitBits);
            }
            if (!any)
                break;
            const int e = expected[cell];
            ++r.cellsChecked;
            if (e < 0 ? !written : (coded && index[0] == e / s.n && index[1] == e % s.n))
                continue;
            ProbeMismatch m;
            m.operand = Operand::D;
            m.row = e < 0 ? -1 : e / s.n;
            m.col = e < 0 ? -1 : e % s.n;
            m.experiment = "rows and columns, " + std::string(toString(source));
            const std::string name = where(cell);
            m.expected = name + " holds " +
                         (e < 0 ? std::string("nothing (outside the layout)")
                                : "D(" + std::to_string(e / s.n) + "," + std::to_string(e % s.n) + ")");
            m.observed = name + " holds " +
                         (!written ? std::string("nothing (the sentinel)")
                          : !coded ? std::string("a value that is no coded index")
                                   : "D(" + std::to_string(index[0]) + "," + std::to_string(index[1]) + ")");
            add(r, std::move(m));
        }
}

} // namespace

Interpretation interpret(const Plan& plan, std::span<const std::uint32_t> raw) {
    Interpretation out;
    ProbeResult& r = out.result;
    r.spec = plan.instruction->spec;
    r.experiments = static_cast<int>(plan.experiments.size());
    if (plan.experiments.empty()) {
        r.verdict = Verdict::Unsupported;
        r.reason = "the tensor-memory probe runs tcgen05.ld, tcgen05.st and tcgen05.mma only";
        return out;
    }
    if (raw.size() != plan.outWords()) {
        r.verdict = Verdict::Fail;
        r.reason = "the device returned " + std::to_string(raw.size()) + " words, the plan expects " +
                   std::to_string(plan.outWords());
        return out;
    }
    if (plan.access && plan.access->op == tmem::Op::Ld)
        interpretLd(plan, raw, r);
    else if (plan.access)
        interpretSt(plan, raw, simulate(plan), r);
    else
        interpretMma(plan, raw, r);
    r.verdict = r.cellsMismatched ? Verdict::Fail : Verdict::Pass;
    if (r.verdict == Verdict::Pass) {
        if (plan.access)
            r.findings.push_back(
                std::string(plan.access->op == tmem::Op::Ld
                                ? "data-path shape confirmed: every register holds the Tensor "
                                  "Memory cell the engine names"
                                : "data-path shape confirmed: every register lands in the Tensor "
                                  "Memory cell the engine names, and nothing else is written") +
                (plan.experiments.size() == 2 ? " (both 16-lane halves)" : ""));
        else
            r.findings.push_back(
                "data-path layout " + std::string(tmem::toString(tmem::layoutOf(*plan.mma).layout)) +
                " confirmed: every Tensor Memory cell holds the D element the engine names, and "
                "the cells outside the layout are untouched, with A from shared memory and with A from "
                "Tensor Memory placed as the engine's A layout says");
    }
    return out;
}

} // namespace lanemap::gpu::tc
