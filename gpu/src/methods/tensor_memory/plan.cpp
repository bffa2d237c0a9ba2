// The tensor-memory probe method (tensor_memory.hpp): plans, the simulator, and the capability check.
#include "tensor_memory.hpp"

#include "mma.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace lanemap::gpu::tc {

namespace {

int lanesOf(const tmem::Access& a) {
    return tmem::recordOf(a.shape).lanes;
}

// The bits of m or n (both < 256) one mma experiment carries: the operand type's exact powers of two that K
// (compressed, for sparse A) has room for. e2m1 (mxf4, mxf4nvf4) has 1, 2 and 4 only.
int digitBitsOf(const tmem::MmaShape& s) {
    return s.kind == tmem::MmaKind::MXF4 || s.kind == tmem::MmaKind::MXF4NVF4 ? 3 : 8;
}
constexpr int kIndexBits = 8; // M and N are at most 256

int digitOf(int index, int digit, int bits) {
    return index >> (digit * bits) & ((1 << bits) - 1);
}

// What a device is, for the capability message: a noun phrase, so the message stays one sentence.
std::string_view generationOf(int sm) {
    if (sm >= 120)
        return "a Blackwell GeForce/RTX GPU, which has no Tensor Memory";
    if (sm >= 100)
        return "a Blackwell GPU";
    if (sm >= 90)
        return "a Hopper GPU";
    if (sm >= 89)
        return "an Ada GPU";
    if (sm >= 80)
        return "an Ampere GPU";
    return "a GPU older than Ampere";
}

} // namespace

std::string_view toString(ASource source) {
    return source == ASource::SharedMemory ? "A from shared memory" : "A from Tensor Memory";
}

std::uint32_t cellCode(int lane, int column) {
    const std::uint32_t code = static_cast<std::uint32_t>(lane) << 9 | static_cast<std::uint32_t>(column);
    return code | (~code & 0xffffu) << 16;
}

std::uint32_t registerCode(int warp, int thread, int reg, int half) {
    return static_cast<std::uint32_t>(warp << 13 | thread << 8 | reg << 1 | half);
}

std::size_t Plan::outWordsPerExperiment() const {
    if (access && access->op == tmem::Op::Ld)
        return static_cast<std::size_t>(4 * tmem::registersOf(*access) * 32);
    const int ctas = mma ? mma->ctaGroup : 1;
    return static_cast<std::size_t>(ctas * tmem::kLanes * columns);
}

int operandValue(const Plan& plan, const Experiment& x, Operand operand, int index, int k) {
    if (k >= plan.digitBits)
        return 0;
    const bool coded = (x.axis == Axis::Rows) == (operand == Operand::A);
    return coded ? digitOf(index, x.digit, plan.digitBits) >> k & 1 : 1 << k;
}

Plan planProbe(const Instruction& in) {
    Plan plan;
    plan.instruction = &in;
    plan.access = tmem::accessOf(in);
    plan.mma = tmem::mmaOf(in);
    if (plan.access) {
        const tmem::Access& a = *plan.access;
        plan.columns = tmem::columnsOf(a);
        const bool half = lanesOf(a) == 16;
        plan.experiments.push_back({half ? "lower half (lane 32w)" : "lane 32w", 0, Axis::Rows, 0});
        if (half)
            plan.experiments.push_back({"upper half (lane 32w + 16)", 16, Axis::Rows, 0});
        // ld: the cells' codes, written through .32x32b.x1; st: every thread's registers.
        if (a.op == tmem::Op::Ld) {
            for (int c = 0; c < plan.columns; ++c)
                for (int lane = 0; lane < tmem::kLanes; ++lane)
                    plan.inputs.push_back(cellCode(lane, c));
        } else {
            const int regs = tmem::registersOf(a);
            for (int w = 0; w < 4; ++w)
                for (int r = 0; r < regs; ++r)
                    for (int t = 0; t < 32; ++t) {
                        const std::uint32_t lo = registerCode(w, t, r, 0);
                        plan.inputs.push_back(a.packed ? lo | registerCode(w, t, r, 1) << 16
                                                       : lo | (~lo & 0xffffu) << 16);
                    }
        }
    } else if (plan.mma) {
        const tmem::MmaShape& s = *plan.mma;
        plan.digitBits = digitBitsOf(s);
        for (int m = 0; m < s.m; ++m)
            for (int n = 0; n < s.n; ++n)
                plan.columns = std::max(plan.columns, tmem::placeD(s, m, n).column + 1);
        const int digits = (kIndexBits + plan.digitBits - 1) / plan.digitBits;
        for (const ASource source : {ASource::SharedMemory, ASource::TensorMemory}) {
            if (source == ASource::TensorMemory)
                plan.firstTensorMemoryA = static_cast<int>(plan.experiments.size());
            for (const Axis axis : {Axis::Rows, Axis::Columns})
                for (int d = 0; d < digits; ++d) {
                    std::string label = axis == Axis::Rows ? "rows: D[m][n] = " : "columns: D[m][n] = ";
                    label += digits == 1
                                 ? (axis == Axis::Rows ? "m" : "n")
                                 : "digit " + std::to_string(d + 1) + " of " + std::to_string(digits) +
                                       (axis == Axis::Rows ? " of m" : " of n");
                    label += ", " + std::string(toString(source));
                    plan.experiments.push_back({std::move(label), 0, axis, d, source});
                }
        }
        try {
            plan.mmaSetup = std::make_shared<const MmaSetup>(mmaSetupOf(s));
        } catch (const std::invalid_argument& e) {
            // A shape the descriptor encoder rejects (the catalog asks the same Table 39 rules, so none
            // should): no kernel input, and the entry says why.
            plan.notProbed = e.what();
            return plan;
        }
        for (const Experiment& x : plan.experiments)
            for (int cta = 0; cta < s.ctaGroup; ++cta) {
                const std::vector<std::uint32_t> images = mmaImages(plan, x, cta);
                plan.inputs.insert(plan.inputs.end(), images.begin(), images.end());
            }
    }
    return plan;
}

std::vector<std::uint32_t> simulate(const Plan& plan) {
    std::vector<std::uint32_t> out;
    if (plan.access) {
        const tmem::Access& a = *plan.access;
        const int regs = tmem::registersOf(a);
        const bool ld = a.op == tmem::Op::Ld;
        for (const Experiment& x : plan.experiments) {
            if (ld) {
                for (int w = 0; w < 4; ++w)
                    for (int r = 0; r < regs; ++r)
                        for (int t = 0; t < 32; ++t) {
                            const auto code = [&](int half) {
                                const tmem::Cell c = tmem::cellOf(a, t, r, half);
                                return cellCode(32 * w + x.laneOffset + c.lane, c.column);
                            };
                            out.push_back(a.packed ? (code(0) & 0xffffu) | (code(1) & 0xffffu) << 16
                                                   : code(0));
                        }
                continue;
            }
            // st: the sentinel everywhere but where the registers land.
            std::vector<std::uint32_t> image(static_cast<std::size_t>(tmem::kLanes * plan.columns),
                                             kSentinel);
            for (int w = 0; w < 4; ++w)
                for (int r = 0; r < regs; ++r)
                    for (int t = 0; t < 32; ++t)
                        for (int h = 0; h < tmem::elementsPerRegister(a); ++h) {
                            const tmem::Cell c = tmem::cellOf(a, t, r, h);
                            const std::uint32_t word =
                                plan.inputs[static_cast<std::size_t>((w * regs + r) * 32 + t)];
                            // .unpack::16b: each half in the low 16 bits of its column (zero-extended).
                            image[static_cast<std::size_t>(c.column * tmem::kLanes + 32 * w + x.laneOffset +
                                                           c.lane)] =
                                a.packed ? (word >> (16 * h) & 0xffffu) : word;
                        }
            out.insert(out.end(), image.begin(), image.end());
        }
        return out;
    }
    if (!plan.mma)
        return out;
    return simulateMma(plan);
}

std::string unsupportedOn(const Variant& v, const DeviceInfo& device) {
    if (device.sm == 100 || device.sm == 103 || device.sm == 110)
        return {};
    // No parentheses: reports print the reason inside their own ("0 cells (...)").
    return "needs sm_" + std::to_string(v.minSm) +
           "a: tcgen05 and Tensor Memory exist only on sm_100a, sm_103a and sm_110a; this device is sm_" +
           std::to_string(device.sm) + (device.name.empty() ? "" : ", " + device.name) + ", " +
           std::string(generationOf(device.sm));
}

} // namespace lanemap::gpu::tc
