// A CPU tensor core for tests: decodes the register images with a reference layout (not the engine's, if a
// test says so), multiplies, and encodes D into registers the same way. It shares no code with the
// interpreter's reading of D, so a bug on one side cannot hide one on the other.
#include "lanemap/gpu/simulate.hpp"

#include "plan_detail.hpp"
#include "shared/sparse_sim.hpp"

#include <bit>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace lanemap::gpu {

SimReference referenceOf(const Instruction& in) {
    SimReference r;
    auto copy = [&](Operand name) {
        const FragmentLayout* op = in.operand(name);
        if (!op)
            throw std::logic_error(in.spec + " has no operand " + std::string(toString(name)));
        return std::vector<Element>(op->elements().begin(), op->elements().end());
    };
    r.a = copy(Operand::A);
    r.b = copy(Operand::B);
    r.c = copy(Operand::C);
    r.d = copy(Operand::D);
    if (in.metadata)
        r.metadata = *in.metadata; // a copy: simulations may play a different hardware
    return r;
}

namespace {

std::uint16_t toHalf(double v) {
    // Exact for the small integers the probe produces (|v| <= 2048).
    if (v == 0.0)
        return 0;
    const bool negative = v < 0;
    double a = std::fabs(v);
    int exp = 0;
    const double man = std::frexp(a, &exp); // a = man * 2^exp, man in [0.5, 1)
    const int e = exp - 1 + 15;
    if (e <= 0 || e >= 31)
        throw std::out_of_range("simulated f16 value out of range");
    const auto m = static_cast<std::uint16_t>(std::lround((man * 2.0 - 1.0) * 1024.0));
    return static_cast<std::uint16_t>((negative ? 0x8000 : 0) | (e << 10) | m);
}

std::uint64_t encode(ElementType type, double v) {
    switch (type) {
    case ElementType::F32:
        return std::bit_cast<std::uint32_t>(static_cast<float>(v));
    case ElementType::F16:
        return toHalf(v);
    case ElementType::F64:
        return std::bit_cast<std::uint64_t>(v);
    case ElementType::S32:
        return static_cast<std::uint32_t>(static_cast<std::int32_t>(std::lround(v)));
    default:
        break;
    }
    throw std::invalid_argument("cannot encode accumulator type '" + std::string(toString(type)) + "'");
}

struct Geometry {
    const FragmentLayout& layout;
    int wordOffset;
};

std::uint64_t readBits(const std::uint32_t* img, const Geometry& g, const Element& e) {
    const int regWords = g.layout.registerBits() / 32;
    const std::size_t word = static_cast<std::size_t>(g.wordOffset + e.reg * regWords + e.bit / 32);
    if (regWords == 2)
        return img[word * 32 + e.thread] | (std::uint64_t{img[(word + 1) * 32 + e.thread]} << 32);
    const int width = g.layout.elementBits();
    const std::uint32_t w = img[word * 32 + e.thread] >> (e.bit % 32);
    return width >= 32 ? w : (w & ((1u << width) - 1u));
}

// The logical value of an element: the probe writes only 0 and 1.
int logical(std::uint64_t bits, std::uint64_t one) {
    if (bits == 0)
        return 0;
    if (bits == one)
        return 1;
    throw std::logic_error("simulate: an element holds neither 0 nor 1");
}

// The elements of one operand grouped by the image word (word * 32 + lane) that holds them, so decoding an
// image touches only its non-zero words.
struct WordIndex {
    WordIndex(const std::vector<Element>& els, const Geometry& g, int words)
        : offsets(static_cast<std::size_t>(words) * 32 + 1, 0) {
        const int regWords = g.layout.registerBits() / 32;
        auto slot = [&](const Element& e) {
            return static_cast<std::size_t>(e.reg * regWords + e.bit / 32) * 32 + e.thread;
        };
        for (const Element& e : els)
            ++offsets[slot(e) + 1];
        for (std::size_t i = 1; i < offsets.size(); ++i)
            offsets[i] += offsets[i - 1];
        list.resize(els.size());
        std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
        for (std::uint32_t i = 0; i < els.size(); ++i)
            list[fill[slot(els[i])]++] = i;
    }
    std::vector<std::uint32_t> offsets, list;
};

struct Entry {
    int p, r, c, v;
};

} // namespace

std::vector<std::uint32_t> simulate(const ProbePlan& plan, const SimReference& ref) {
    const Instruction& in = *plan.instruction;
    const FragmentLayout& la = *in.operand(Operand::A);
    const FragmentLayout& lb = *in.operand(Operand::B);
    const FragmentLayout& lc = *in.operand(Operand::C);
    const FragmentLayout& ld = *in.operand(Operand::D);
    const int P = la.matrices(), M = la.rows(), K = la.cols(), N = lb.cols();
    const RegisterWords& w = plan.words;
    const Geometry ga{la, 0}, gb{lb, w.a}, gc{lc, w.a + w.b};
    const WordIndex ia(ref.a, Geometry{la, 0}, w.a), ib(ref.b, Geometry{lb, 0}, w.b),
        ic(ref.c, Geometry{lc, 0}, w.c);
    const std::uint64_t oneC = traits(lc.elementType()).one;
    const ElementType dType = ld.elementType();
    const std::size_t per = plan.inWordsPerExperiment();
    std::vector<std::uint32_t> out(plan.outWords(), 0u);
    auto mat = [](const Element& e) { return e.matrix < 0 ? 0 : e.matrix; };

    // Non-zero elements of an operand image as (matrix, row, col, value), in image order.
    auto decode = [&](const std::uint32_t* img, const Geometry& g, const WordIndex& index,
                      const std::vector<Element>& els, std::uint64_t one, auto&& column,
                      std::vector<Entry>& to) {
        to.clear();
        const std::size_t words = index.offsets.size() - 1;
        const std::uint32_t* base = img + static_cast<std::size_t>(g.wordOffset) * 32;
        for (std::size_t wl = 0; wl < words; ++wl) {
            if (!base[wl] && !(g.layout.registerBits() == 64 && wl + 32 < words && base[wl + 32]))
                continue;
            for (std::uint32_t i = index.offsets[wl]; i < index.offsets[wl + 1]; ++i) {
                const Element& e = els[index.list[i]];
                const int v = logical(readBits(img, g, e), one);
                if (!v)
                    continue;
                const int col = column(index.list[i], e);
                if (col >= 0)
                    to.push_back({mat(e), e.row, col, v});
            }
        }
    };
    auto ownColumn = [](std::uint32_t, const Element& e) { return static_cast<int>(e.col); };

    // B images repeat (the k codes are the same for every A element): decode each distinct one once.
    struct CachedB {
        std::vector<std::uint32_t> words;
        std::vector<Entry> entries;
        std::vector<int> matrix, colSum;
    };
    std::vector<CachedB> cache;
    std::optional<detail::SparseSim> sparse;
    if (ref.metadata)
        sparse.emplace(ref, *ref.metadata);
    std::vector<Entry> nzA, nzC, nzB;
    std::vector<int> D(static_cast<std::size_t>(P * M * N)), rowSumA(static_cast<std::size_t>(P * M));

    for (std::size_t x = 0; x < plan.experiments.size(); ++x) {
        const Experiment& ex = plan.experiments[x];
        const ProbeForm& form = plan.forms[ex.form];
        const std::uint32_t* img = plan.images.data() + x * per;
        const std::uint32_t* meta = w.e ? img + static_cast<std::size_t>(w.a + w.b + w.c) * 32 : nullptr;

        const std::uint32_t* bWords = img + static_cast<std::size_t>(w.a) * 32;
        const std::size_t bCount = static_cast<std::size_t>(w.b) * 32;
        const CachedB* b = nullptr;
        for (const CachedB& cached : cache)
            if (std::equal(cached.words.begin(), cached.words.end(), bWords))
                b = &cached;
        if (!b || cache.size() > 64) {
            if (cache.size() > 64)
                cache.clear();
            CachedB fresh;
            fresh.words.assign(bWords, bWords + bCount);
            decode(img, gb, ib, ref.b, traits(form.btype()).one, ownColumn, fresh.entries);
            fresh.matrix.assign(static_cast<std::size_t>(P * K * N), 0);
            fresh.colSum.assign(static_cast<std::size_t>(P * N), 0);
            for (const Entry& e : fresh.entries) {
                fresh.matrix[static_cast<std::size_t>((e.p * K + e.r) * N + e.c)] += e.v;
                fresh.colSum[static_cast<std::size_t>(e.p * N + e.c)] += e.v;
            }
            cache.push_back(std::move(fresh));
            b = &cache.back();
        }
        decode(
            img, ga, ia, ref.a, traits(form.atype()).one,
            [&](std::uint32_t i, const Element& e) {
                return sparse ? sparse->column(i, form.selector, meta) : static_cast<int>(e.col);
            },
            nzA);
        decode(img, gc, ic, ref.c, oneC, ownColumn, nzC);

        std::fill(D.begin(), D.end(), 0);
        std::fill(rowSumA.begin(), rowSumA.end(), 0);
        for (const Entry& c : nzC)
            D[static_cast<std::size_t>((c.p * M + c.r) * N + c.c)] += c.v;
        // A·B over the non-zeros of A; b1 .xor counts a ^ b = a + b - 2ab over all k.
        for (const Entry& a : nzA) {
            rowSumA[static_cast<std::size_t>(a.p * M + a.r)] += a.v;
            for (int n = 0; n < N; ++n)
                D[static_cast<std::size_t>((a.p * M + a.r) * N + n)] +=
                    (form.xorPopc() ? -2 : 1) * a.v *
                    b->matrix[static_cast<std::size_t>((a.p * K + a.c) * N + n)];
        }
        if (form.xorPopc())
            for (int m = 0; m < P; ++m)
                for (int r = 0; r < M; ++r)
                    for (int n = 0; n < N; ++n)
                        D[static_cast<std::size_t>((m * M + r) * N + n)] +=
                            rowSumA[static_cast<std::size_t>(m * M + r)] +
                            b->colSum[static_cast<std::size_t>(m * N + n)];

        std::uint32_t* o = out.data() + x * plan.outWordsPerExperiment();
        const int regWords = ld.registerBits() / 32;
        for (const Element& e : ref.d) {
            const std::uint64_t bits =
                encode(dType, D[static_cast<std::size_t>((mat(e) * M + e.row) * N + e.col)]);
            const std::size_t word = static_cast<std::size_t>(e.reg * regWords + e.bit / 32);
            if (regWords == 2) {
                o[word * 32 + e.thread] = static_cast<std::uint32_t>(bits);
                o[(word + 1) * 32 + e.thread] = static_cast<std::uint32_t>(bits >> 32);
            } else {
                o[word * 32 + e.thread] |= static_cast<std::uint32_t>(bits << (e.bit % 32));
            }
        }
    }
    return out;
}

} // namespace lanemap::gpu
