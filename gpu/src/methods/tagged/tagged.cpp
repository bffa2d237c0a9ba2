// The tagged-tile probe method for ldmatrix / stmatrix / movmatrix (tagged.hpp).
#include "tagged.hpp"

#include "lanemap/matrix_move.hpp"

#include <cstdio>

namespace lanemap::gpu::tagged {

namespace {

// A tag is `width` bits (the element's bits where it is written: 16 for .b16, 8 for .b8, 6 or 4 for the
// packed sources): the top bit marks it (0 = untouched), the others carry one digit of the key naming the
// element. A key too long for one tag is carried by several experiments, one digit each (digit 0 first).
// Memory key (ld): matrix << 8 | row << 4 | element. Register key (st, mov): lane, register, slot.
struct Coding {
    int width = 16;
    int digitBits = 15;
    int digits = 1;
    std::uint32_t marker() const { return 1u << (width - 1); }
    std::uint32_t poison() const { return 0x0bad & (marker() - 1); } // the row unused threads point at
    std::uint32_t tag(std::uint32_t key, int digit) const {
        return marker() | ((key >> (digit * digitBits)) & (marker() - 1));
    }
};

constexpr int kMemoryKeyBits = 10; // matrix < 4, row < 16, element < 16

Coding codingFor(int width, int keyBits) {
    Coding c;
    c.width = width;
    c.digitBits = width - 1;
    c.digits = (keyBits + c.digitBits - 1) / c.digitBits;
    return c;
}

std::uint32_t memoryKey(int q, int r, int e) {
    return static_cast<std::uint32_t>(q << 8 | r << 4 | e);
}

int slotBits(const FragmentLayout& regs) {
    return regs.elementsPerRegister() == 4 ? 2 : 1;
}
std::uint32_t registerKey(const FragmentLayout& regs, int lane, int reg, int slot) {
    const int sb = slotBits(regs);
    return static_cast<std::uint32_t>(lane << (2 + sb) | reg << sb | slot);
}

// The side the tags are written on: memory for ldmatrix (the element's bits in its row), registers for
// stmatrix and movmatrix (the container's payload bits).
Coding codingOf(const Instruction& in) {
    const FragmentLayout& regs = in.operands.back();
    if (matrixMoveOf(in)->op == MoveOp::Ldmatrix)
        return codingFor(elementBitsInMemory(matrixMoveOf(in)->format), kMemoryKeyBits);
    return codingFor(regs.elementBits(), 5 + 2 + slotBits(regs));
}

std::uint32_t bits(const std::uint32_t* words, std::size_t bit, int width) {
    const std::uint64_t pair = words[bit / 32] | (bit % 32 + static_cast<std::size_t>(width) > 32
                                                      ? std::uint64_t{words[bit / 32 + 1]} << 32
                                                      : std::uint64_t{0});
    return static_cast<std::uint32_t>(pair >> (bit % 32)) & ((1u << width) - 1);
}
void setBits(std::uint32_t* words, std::size_t bit, int width, std::uint32_t v) {
    for (int b = 0; b < width; ++b, ++bit) {
        const std::uint32_t m = 1u << (bit % 32);
        words[bit / 32] = (v >> b & 1u) ? words[bit / 32] | m : words[bit / 32] & ~m;
    }
}

std::string hexValue(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", v);
    return buf;
}

std::string describeMemoryTag(const Coding& c, std::uint32_t t, int digit) {
    if (t == c.poison())
        return "the poison row (an address the engine says is unused)";
    if (!(t & c.marker()))
        return "nothing (" + hexValue(t) + ")";
    const std::uint32_t key = t & (c.marker() - 1);
    if (c.digits == 1) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "matrix %u row %u element %u", key >> 8 & 0x7f, key >> 4 & 0xf,
                      key & 0xf);
        return buf;
    }
    return "tag " + hexValue(t) + " (digit " + std::to_string(digit) +
           " of the matrix/row/element key: " + hexValue(key) + ")";
}
std::string describeRegisterTag(const Coding& c, const FragmentLayout& regs, std::uint32_t t, int digit) {
    if (!(t & c.marker()))
        return t == 0 ? "nothing written" : "an unexpected value";
    const std::uint32_t key = t & (c.marker() - 1);
    if (c.digits == 1) {
        const int sb = slotBits(regs);
        char buf[64];
        if (sb == 1)
            std::snprintf(buf, sizeof buf, "lane %u register %u %s half", key >> 3 & 0x1f, key >> 1 & 3,
                          (key & 1) ? "high" : "low");
        else
            std::snprintf(buf, sizeof buf, "lane %u register %u byte %u", key >> 4 & 0x1f, key >> 2 & 3,
                          key & 3);
        return buf;
    }
    return "tag " + hexValue(t) + " (digit " + std::to_string(digit) +
           " of the lane/register/slot key: " + hexValue(key) + ")";
}

int rowsOf(const Instruction& in) {
    return numOf(in) * matrixMoveOf(in)->rows;
}

// Where an element is in the registers: the container's first bit (word index * 32 + bit) and the
// payload's offset inside it.
std::size_t containerBit(const FragmentLayout& regs, const Element& e) {
    const int pad = e.bit % regs.containerBits();
    return static_cast<std::size_t>(e.reg * 32 + e.thread) * 32 + static_cast<std::size_t>(e.bit - pad);
}
int payloadPadOf(const FragmentLayout& regs, const Element& e) {
    return e.bit % regs.containerBits();
}

// Where memory row (q, r) element `col` is in the image: its first bit.
std::size_t memoryBit(const Instruction& in, const Experiment& x, int q, int r, int col) {
    return static_cast<std::size_t>(x.chunkOfRow[static_cast<std::size_t>(q * matrixMoveOf(in)->rows + r)]) *
               128 +
           static_cast<std::size_t>(elementBitInRow(matrixMoveOf(in)->format, col));
}

} // namespace

bool supported(const Variant& v) {
    return matrixMoveOf(v) != nullptr;
}

Plan planProbe(const Instruction& in) {
    Plan plan;
    plan.instruction = &in;
    if (!supported(in))
        return plan; // no experiments: interpret() says why
    const Coding coding = codingOf(in);
    const int rows = matrixMoveOf(in)->address ? rowsOf(in) : 0;
    // Rows in order, then scrambled over the 64 chunks (5 is coprime to 64), so a thread that supplied
    // another row's address would be seen; each once per key digit.
    for (int scrambled = 0; scrambled < 2; ++scrambled)
        for (int digit = 0; digit < coding.digits; ++digit) {
            Experiment x;
            x.label = scrambled ? "rows scrambled" : "rows in order";
            if (coding.digits > 1)
                x.label +=
                    ", tag digit " + std::to_string(digit + 1) + " of " + std::to_string(coding.digits);
            x.digit = digit;
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
    const MoveOp op = matrixMoveOf(in)->op;
    // The registers a store or movmatrix reads (stmatrix: r; movmatrix: a); ldmatrix has none.
    const FragmentLayout* source = op == MoveOp::Ldmatrix ? nullptr : in.operand(Operand::A);
    const std::vector<AddressSlot> slots = addressMap(in);
    const int memoryBits = elementBitsInMemory(matrixMoveOf(in)->format);
    plan.inputs.assign(kInWords * plan.experiments.size(), 0);
    for (std::size_t xi = 0; xi < plan.experiments.size(); ++xi) {
        const Experiment& x = plan.experiments[xi];
        std::uint32_t* words = plan.inputs.data() + xi * kInWords;
        std::uint32_t* image = words;
        std::uint32_t* address = words + kImageWords;
        std::uint32_t* registers = address + 32;
        if (op == MoveOp::Ldmatrix) {
            for (int q = 0; q < numOf(in); ++q)
                for (int r = 0; r < matrixMoveOf(in)->rows; ++r)
                    for (int e = 0; e < matrixMoveOf(in)->cols; ++e)
                        setBits(image, memoryBit(in, x, q, r, e), memoryBits,
                                coding.tag(memoryKey(q, r, e), x.digit));
            for (int e = 0; e < matrixMoveOf(in)->cols; ++e)
                setBits(image,
                        static_cast<std::size_t>(x.poisonChunk) * 128 +
                            static_cast<std::size_t>(elementBitInRow(matrixMoveOf(in)->format, e)),
                        memoryBits, coding.poison());
        }
        for (const AddressSlot& s : slots)
            address[s.thread] = static_cast<std::uint32_t>(
                16 *
                (s.matrix < 0
                     ? x.poisonChunk
                     : x.chunkOfRow[static_cast<std::size_t>(s.matrix * matrixMoveOf(in)->rows + s.row)]));
        if (source)
            for (const Element& e : source->elements())
                setBits(
                    registers, containerBit(*source, e) + static_cast<std::size_t>(payloadPadOf(*source, e)),
                    source->elementBits(),
                    coding.tag(registerKey(*source, e.thread, e.reg, e.index % source->elementsPerRegister()),
                               x.digit));
    }
    return plan;
}

std::vector<std::uint32_t> simulate(const Plan& plan) {
    const Instruction& in = *plan.instruction;
    const MatrixMove& mv = *matrixMoveOf(in);
    std::vector<std::uint32_t> out(plan.outWords(), 0);
    const FragmentLayout& data = in.operands.back();
    const Coding coding = codingOf(in);
    for (std::size_t xi = 0; xi < plan.experiments.size(); ++xi) {
        const Experiment& x = plan.experiments[xi];
        std::uint32_t* o = out.data() + xi * kOutWords;
        for (const Element& e : data.elements()) {
            const int q = std::max<int>(e.matrix, 0);
            if (mv.op == MoveOp::Ldmatrix) {
                setBits(o, containerBit(data, e), data.containerBits(),
                        coding.tag(memoryKey(q, e.row, e.col), x.digit) << payloadPadOf(data, e));
            } else if (mv.op == MoveOp::Stmatrix) {
                setBits(o, memoryBit(in, x, q, e.row, e.col), elementBitsInMemory(mv.format),
                        coding.tag(registerKey(data, e.thread, e.reg, e.index % data.elementsPerRegister()),
                                   x.digit));
            } else { // movmatrix: D's slot holds the A element at the same cell
                const FragmentLayout& a = *in.operand(Operand::A);
                const Element& src = a.owners(e.row, e.col).front();
                setBits(o, containerBit(data, e), data.containerBits(),
                        coding.tag(registerKey(a, src.thread, src.reg, src.index % a.elementsPerRegister()),
                                   x.digit)
                            << payloadPadOf(data, e));
            }
        }
    }
    return out;
}

Interpretation interpret(const Plan& plan, std::span<const std::uint32_t> raw) {
    const Instruction& in = *plan.instruction;
    const MatrixMove& mv = *matrixMoveOf(in);
    const std::vector<std::uint32_t> expected = simulate(plan);
    Interpretation out;
    ProbeResult& r = out.result;
    r.spec = in.spec;
    r.experiments = static_cast<int>(plan.experiments.size());
    if (plan.experiments.empty()) {
        r.verdict = Verdict::Unsupported;
        r.reason = "the tagged probe runs matrix moves only";
        return out;
    }
    if (raw.size() != expected.size()) {
        r.verdict = Verdict::Fail;
        r.reason = "the device returned " + std::to_string(raw.size()) + " words, the plan expects " +
                   std::to_string(expected.size());
        return out;
    }
    const FragmentLayout& data = in.operands.back();
    const Coding coding = codingOf(in);
    const bool memorySide = mv.op == MoveOp::Ldmatrix;
    for (std::size_t xi = 0; xi < plan.experiments.size(); ++xi) {
        const Experiment& x = plan.experiments[xi];
        const std::uint32_t* got = raw.data() + xi * kOutWords;
        const std::uint32_t* want = expected.data() + xi * kOutWords;
        for (const Element& e : data.elements()) {
            const int q = std::max<int>(e.matrix, 0);
            // stmatrix: the element's bits in memory; ld/mov: the whole register container (payload where
            // the engine says, the rest zero).
            const bool store = mv.op == MoveOp::Stmatrix;
            const std::size_t at = store ? memoryBit(in, x, q, e.row, e.col) : containerBit(data, e);
            const int width = store ? elementBitsInMemory(mv.format) : data.containerBits();
            const int pad = store ? 0 : payloadPadOf(data, e);
            ++r.cellsChecked;
            const std::uint32_t g = bits(got, at, width), w = bits(want, at, width);
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
            const auto describe = [&](std::uint32_t v) {
                const std::string where = pad ? " (container " + hexValue(v) + ")" : "";
                return (memorySide ? describeMemoryTag(coding, v >> pad & ((1u << coding.width) - 1), x.digit)
                                   : describeRegisterTag(coding, *in.operand(Operand::A),
                                                         v >> pad & ((1u << coding.width) - 1), x.digit)) +
                       where;
            };
            m.expected = describe(w);
            m.observed = describe(g);
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
                    m.observed =
                        "written: " +
                        describeRegisterTag(coding, data, got[w] & ((1u << coding.width) - 1), x.digit);
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
                             std::to_string(numOf(in) * mv.rows) +
                             " rows, scrambled and in order) and the unused threads' addresses ignored");
    return out;
}

} // namespace lanemap::gpu::tagged
