// The tagged-tile probe method for ldmatrix / stmatrix / movmatrix (probe_ldmatrix.hpp).
#include "probe_ldmatrix.hpp"

#include "lanemap/matrix_move.hpp"

#include <cstdio>

namespace lanemap::gpu::tagged {

namespace {

constexpr std::uint16_t kTag = 0x8000;    // every tag has bit 15 set; 0 = untouched
constexpr std::uint16_t kPoison = 0x0bad; // the row the unused threads point at

// ld: the element of memory row (matrix q, row r), element e.
std::uint16_t memoryTag(int q, int r, int e) {
    return static_cast<std::uint16_t>(kTag | q << 8 | r << 4 | e);
}
// st: lane L, register j, half h; mov: the same with j = 0.
std::uint16_t registerTag(int lane, int reg, int half) {
    return static_cast<std::uint16_t>(kTag | lane << 3 | reg << 1 | half);
}

std::string describeMemoryTag(std::uint16_t t) {
    if (t == kPoison)
        return "the poison row (an address the engine says is unused)";
    if (!(t & kTag))
        return "nothing (0x" + std::to_string(t) + ")";
    char buf[64];
    std::snprintf(buf, sizeof buf, "matrix %d row %d element %d", (t >> 8) & 0x7f, (t >> 4) & 0xf, t & 0xf);
    return buf;
}
std::string describeRegisterTag(std::uint16_t t) {
    if (!(t & kTag))
        return t == 0 ? "nothing written" : "an unexpected value";
    char buf[64];
    std::snprintf(buf, sizeof buf, "lane %d register %d %s half", (t >> 3) & 0x1f, (t >> 1) & 3,
                  (t & 1) ? "high" : "low");
    return buf;
}

std::uint16_t half(const std::uint32_t* words, std::size_t halfIndex) {
    return static_cast<std::uint16_t>(words[halfIndex / 2] >> (16 * (halfIndex % 2)));
}
void setHalf(std::uint32_t* words, std::size_t halfIndex, std::uint16_t v) {
    std::uint32_t& w = words[halfIndex / 2];
    const int shift = 16 * static_cast<int>(halfIndex % 2);
    w = (w & ~(0xffffu << shift)) | (std::uint32_t{v} << shift);
}

int rowsOf(const Instruction& in) {
    return in.num * in.move->rows;
}

} // namespace

bool supported(const Variant& v) {
    return v.move && v.move->format == RowFormat::B16;
}

Plan planProbe(const Instruction& in) {
    Plan plan;
    plan.instruction = &in;
    if (!supported(in))
        return plan; // no experiments: interpret() says why
    const int rows = in.move->address ? rowsOf(in) : 0;
    // Experiment 1: rows in order. Experiment 2: rows scrambled over the 64 chunks (5 is coprime to 64), so a
    // thread that supplied another row's address would be seen.
    for (int scrambled = 0; scrambled < 2; ++scrambled) {
        Experiment x;
        x.label = scrambled ? "rows scrambled" : "rows in order";
        std::vector<bool> used(64, false);
        for (int k = 0; k < rows; ++k) {
            x.chunkOfRow.push_back(scrambled ? (5 * k + 3) % 64 : k);
            used[static_cast<std::size_t>(x.chunkOfRow.back())] = true;
        }
        for (int c = 63; c >= 0 && x.poisonChunk < 0; --c)
            if (!used[static_cast<std::size_t>(c)])
                x.poisonChunk = c;
        plan.experiments.push_back(std::move(x));
    }
    const MoveOp op = in.move->op;
    const std::vector<AddressSlot> slots = addressMap(in);
    plan.inputs.assign(kInWords * plan.experiments.size(), 0);
    for (std::size_t xi = 0; xi < plan.experiments.size(); ++xi) {
        const Experiment& x = plan.experiments[xi];
        std::uint32_t* words = plan.inputs.data() + xi * kInWords;
        std::uint32_t* image = words;
        std::uint32_t* address = words + kImageWords;
        std::uint32_t* regs = address + 32;
        if (op == MoveOp::Ldmatrix) {
            for (int q = 0; q < in.num; ++q)
                for (int r = 0; r < in.move->rows; ++r)
                    for (int e = 0; e < in.move->cols; ++e)
                        setHalf(image,
                                static_cast<std::size_t>(
                                    x.chunkOfRow[static_cast<std::size_t>(q * in.move->rows + r)] * 8 + e),
                                memoryTag(q, r, e));
            for (int e = 0; e < 8; ++e)
                setHalf(image, static_cast<std::size_t>(x.poisonChunk * 8 + e), kPoison);
        }
        for (const AddressSlot& s : slots)
            address[s.thread] = static_cast<std::uint32_t>(
                16 * (s.matrix < 0
                          ? x.poisonChunk
                          : x.chunkOfRow[static_cast<std::size_t>(s.matrix * in.move->rows + s.row)]));
        if (op != MoveOp::Ldmatrix) {
            const int registers = in.num * in.move->registersPerMatrix;
            for (int lane = 0; lane < 32; ++lane)
                for (int j = 0; j < registers; ++j)
                    regs[j * 32 + lane] = registerTag(lane, j, 0) | std::uint32_t{registerTag(lane, j, 1)}
                                                                        << 16;
        }
    }
    return plan;
}

std::vector<std::uint32_t> simulate(const Plan& plan) {
    const Instruction& in = *plan.instruction;
    const MatrixMove& mv = *in.move;
    std::vector<std::uint32_t> out(plan.outWords(), 0);
    const FragmentLayout& data = in.operands.back();
    for (std::size_t xi = 0; xi < plan.experiments.size(); ++xi) {
        const Experiment& x = plan.experiments[xi];
        std::uint32_t* o = out.data() + xi * kOutWords;
        for (const Element& e : data.elements()) {
            const int q = std::max<int>(e.matrix, 0);
            if (mv.op == MoveOp::Ldmatrix) {
                setHalf(o, static_cast<std::size_t>((e.reg * 32 + e.thread) * 2 + e.index % 2),
                        memoryTag(q, e.row, e.col));
            } else if (mv.op == MoveOp::Stmatrix) {
                setHalf(o,
                        static_cast<std::size_t>(
                            x.chunkOfRow[static_cast<std::size_t>(q * mv.rows + e.row)] * 8 + e.col),
                        registerTag(e.thread, e.reg, e.index % 2));
            } else { // movmatrix: D's slot holds the A element at the same cell
                const FragmentLayout& a = *in.operand(Operand::A);
                const Element& src = a.elements()[a.owners(e.row, e.col).front()];
                setHalf(o, static_cast<std::size_t>((e.reg * 32 + e.thread) * 2 + e.index % 2),
                        registerTag(src.thread, src.reg, src.index % 2));
            }
        }
    }
    return out;
}

Interpretation interpret(const Plan& plan, std::span<const std::uint32_t> raw) {
    const Instruction& in = *plan.instruction;
    const MatrixMove& mv = *in.move;
    const std::vector<std::uint32_t> expected = simulate(plan);
    Interpretation out;
    ProbeResult& r = out.result;
    r.spec = in.spec;
    r.experiments = static_cast<int>(plan.experiments.size());
    if (plan.experiments.empty()) {
        r.verdict = Verdict::Unsupported;
        r.reason = "not confirmed on hardware (needs sm_100a): the tagged probe runs the .b16 forms";
        return out;
    }
    if (raw.size() != expected.size()) {
        r.verdict = Verdict::Fail;
        r.reason = "the device returned " + std::to_string(raw.size()) + " words, the plan expects " +
                   std::to_string(expected.size());
        return out;
    }
    const FragmentLayout& data = in.operands.back();
    for (std::size_t xi = 0; xi < plan.experiments.size(); ++xi) {
        const Experiment& x = plan.experiments[xi];
        const std::uint32_t* got = raw.data() + xi * kOutWords;
        const std::uint32_t* want = expected.data() + xi * kOutWords;
        for (const Element& e : data.elements()) {
            const int q = std::max<int>(e.matrix, 0);
            const std::size_t at =
                mv.op == MoveOp::Stmatrix
                    ? static_cast<std::size_t>(
                          x.chunkOfRow[static_cast<std::size_t>(q * mv.rows + e.row)] * 8 + e.col)
                    : static_cast<std::size_t>((e.reg * 32 + e.thread) * 2 + e.index % 2);
            ++r.cellsChecked;
            const std::uint16_t g = half(got, at), w = half(want, at);
            if (g == w)
                continue;
            ++r.cellsMismatched;
            ProbeMismatch m;
            m.operand = data.operand();
            m.matrix = e.matrix;
            m.row = e.row;
            m.col = e.col;
            m.thread = e.thread;
            m.index = e.index;
            m.experiment = x.label;
            const bool memorySide = mv.op == MoveOp::Ldmatrix;
            m.expected = memorySide ? describeMemoryTag(w) : describeRegisterTag(w);
            m.observed = memorySide ? describeMemoryTag(g) : describeRegisterTag(g);
            if (r.mismatches.size() < 200)
                r.mismatches.push_back(std::move(m));
        }
        // stmatrix: nothing may land outside the rows the engine names (the poison row included).
        if (mv.op == MoveOp::Stmatrix)
            for (std::size_t w = 0; w < kOutWords; ++w)
                if (got[w] != want[w] && want[w] == 0) {
                    ++r.cellsMismatched;
                    ProbeMismatch m;
                    m.operand = data.operand();
                    m.row = static_cast<int>(w / 4);
                    m.col = static_cast<int>(w % 4) * 2;
                    m.experiment = x.label;
                    m.expected = "chunk " + std::to_string(w / 4) + " untouched";
                    m.observed = "written: " + describeRegisterTag(static_cast<std::uint16_t>(got[w]));
                    if (r.mismatches.size() < 200)
                        r.mismatches.push_back(std::move(m));
                }
    }
    r.verdict = r.cellsMismatched ? Verdict::Fail : Verdict::Pass;
    if (r.verdict == Verdict::Pass)
        r.findings.push_back("data map confirmed: every register slot holds the element the engine names" +
                             std::string(mv.trans ? " (.trans)" : ""));
    if (r.verdict == Verdict::Pass && mv.address)
        r.findings.push_back("address map confirmed: every thread's row address (" +
                             std::to_string(in.num * mv.rows) +
                             " rows, scrambled and in order) and the unused threads' addresses ignored");
    return out;
}

} // namespace lanemap::gpu::tagged

namespace lanemap::gpu {

namespace {
class TaggedMethod final : public ProbeMethod {
  public:
    std::string_view name() const override { return "tagged-tile"; }
    std::vector<ProbeForm> forms(const Instruction& in) const override {
        ProbeForm f;
        f.instruction = in.forms.front();
        f.ptx = in.ptx;
        return {f};
    }
    std::unique_ptr<PlannedProbe> plan(const Instruction& in) const override {
        return std::make_unique<tagged::TaggedProbe>(tagged::planProbe(in));
    }
};
} // namespace

const ProbeMethod& taggedMethod() {
    static const TaggedMethod method;
    return method;
}

} // namespace lanemap::gpu
