// Probe planning (docs/probe.md): the forms of a variant and the register images of every experiment.
// Nothing here asks the engine where a row or column is in order to compute a result; the engine's layouts
// only say where to put a one-hot value (the element's register and bits) — what the instruction does with
// it is read back by interpret.cpp.
#include "lanemap/gpu/experiments.hpp"

#include "plan_detail.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>

#include <bit>
#include <cstring>
#include <stdexcept>

namespace lanemap::gpu {

std::string_view toString(ExperimentKind kind) {
    switch (kind) {
    case ExperimentKind::CvsD:
        return "C vs D";
    case ExperimentKind::RowsAD:
        return "rows of A vs D";
    case ExperimentKind::ColsBD:
        return "columns of B vs D";
    case ExperimentKind::KAB:
        return "k of A vs k of B";
    case ExperimentKind::KBase:
        return "popc baseline";
    case ExperimentKind::MetaLocate:
        return "metadata location";
    case ExperimentKind::MetaValue:
        return "metadata value";
    }
    return "?";
}

// --- element encodings --------------------------------------------------------------------------------

namespace {
double halfToDouble(std::uint16_t h) {
    const int sign = h >> 15;
    const int exp = (h >> 10) & 0x1F;
    const int man = h & 0x3FF;
    double v;
    if (exp == 0)
        v = std::ldexp(man, -24);
    else if (exp == 31)
        v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else
        v = std::ldexp(man | 0x400, exp - 25);
    return sign ? -v : v;
}
} // namespace

double decodeValue(ElementType type, std::uint64_t bits) {
    switch (type) {
    case ElementType::F16:
        return halfToDouble(static_cast<std::uint16_t>(bits));
    case ElementType::F32:
        return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
    case ElementType::F64:
        return std::bit_cast<double>(bits);
    case ElementType::S32:
        return static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)));
    default:
        break;
    }
    throw std::invalid_argument("cannot decode accumulator type '" + std::string(toString(type)) + "'");
}

// --- forms ----------------------------------------------------------------------------------------------

std::vector<ProbeForm> formsOf(const Instruction& in) {
    std::vector<ProbeForm> out;
    for (const lanemap::Form& f : in.forms) {
        if (!in.metadata) {
            out.push_back({f, -1, ptxOf(in, f)});
            continue;
        }
        for (const MetadataSelector& sel : in.metadata->selectors)
            out.push_back({f, sel.value, ptxOf(in, f)});
    }
    return out;
}

RegisterWords registerWords(const Instruction& in) {
    auto words = [&](Operand name) {
        const FragmentLayout* op = in.operand(name);
        if (!op)
            throw std::logic_error(in.spec + " has no operand " + std::string(toString(name)));
        return op->registers() * (op->registerBits() / 32);
    };
    RegisterWords w;
    w.a = words(Operand::A);
    w.b = words(Operand::B);
    w.c = words(Operand::C);
    w.d = words(Operand::D);
    w.e = in.metadata ? 1 : 0;
    return w;
}

// --- images -------------------------------------------------------------------------------------------

namespace detail {

void putElement(std::uint32_t* image, int wordOffset, const FragmentLayout& layout, const Element& e,
                std::uint64_t value) {
    const int regWords = layout.registerBits() / 32;
    const int word = wordOffset + e.reg * regWords + e.bit / 32;
    const std::size_t lane = e.thread;
    if (regWords == 2) {
        image[static_cast<std::size_t>(word) * 32 + lane] |= static_cast<std::uint32_t>(value);
        image[static_cast<std::size_t>(word + 1) * 32 + lane] |= static_cast<std::uint32_t>(value >> 32);
    } else {
        image[static_cast<std::size_t>(word) * 32 + lane] |=
            static_cast<std::uint32_t>(value << (e.bit % 32));
    }
}

int bitsFor(std::size_t values) {
    return static_cast<int>(std::bit_width(values));
} // values 1..N need bit_width(N) bits

const std::array<std::uint8_t, 6>& orderedPatterns() {
    // Both indices increasing from the LSB (the only patterns `::ordered_metadata` accepts, all valid for
    // .sp).
    static const std::array<std::uint8_t, 6> p{0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b1110};
    return p;
}

} // namespace detail

namespace {

using detail::putElement;

struct Operands {
    const FragmentLayout& a;
    const FragmentLayout& b;
    const FragmentLayout& c;
    const FragmentLayout& d;
};

Operands operandsOf(const Instruction& in) {
    const FragmentLayout* a = in.operand(Operand::A);
    const FragmentLayout* b = in.operand(Operand::B);
    const FragmentLayout* c = in.operand(Operand::C);
    const FragmentLayout* d = in.operand(Operand::D);
    if (!a || !b || !c || !d)
        throw std::logic_error(in.spec + ": the probe needs operands A, B, C and D");
    return {*a, *b, *c, *d};
}

// Builds each experiment's image from per-form operand segments made once (all ones, the k codes of B), so a
// plan of 100k experiments costs little more than copying its bytes.
class ImageBuilder {
  public:
    ImageBuilder(const ProbePlan& plan, const Operands& ops) : m_plan(plan), m_ops(ops) {
        const RegisterWords& w = plan.words;
        for (const ProbeForm& form : plan.forms) {
            Segments s;
            const std::uint64_t oneA = traits(form.atype()).one, oneB = traits(form.btype()).one;
            s.onesA = segment(ops.a, w.a, [&](std::size_t) { return oneA; });
            s.onesB = segment(ops.b, w.b, [&](std::size_t) { return oneB; });
            for (int bit = 0; bit < plan.kBits; ++bit)
                s.bCode.push_back(
                    segment(ops.b, w.b, [&](std::size_t f) { return ((f + 1) >> bit) & 1u ? oneB : 0; }));
            m_segments.push_back(std::move(s));
        }
        if (plan.instruction->metadata)
            m_sparse.emplace(plan, ops.a, ops.b);
    }

    const detail::SparseImages* sparse() const { return m_sparse ? &*m_sparse : nullptr; }

    void fill(const Experiment& x, std::uint32_t* img) const {
        const ProbeForm& form = m_plan.forms[x.form];
        const Segments& seg = m_segments[x.form];
        const RegisterWords& w = m_plan.words;
        std::uint32_t* a = img;
        std::uint32_t* b = img + static_cast<std::size_t>(w.a) * 32;
        std::uint32_t* c = b + static_cast<std::size_t>(w.b) * 32;
        std::uint32_t* e = c + static_cast<std::size_t>(w.c) * 32;
        const std::uint64_t oneA = traits(form.atype()).one, oneB = traits(form.btype()).one;
        // b1 .xor: the neutral partner of a one-hot is 0 (a ^ 0 = a), not 1.
        const bool neutralOnes = !form.xorPopc();
        auto oneHot = [&](const FragmentLayout& l, std::uint32_t* dst, std::uint64_t one) {
            putElement(dst, 0, l, l.elements()[static_cast<std::size_t>(x.element)], one);
        };
        auto copy = [](const std::vector<std::uint32_t>& from, std::uint32_t* to) {
            std::copy(from.begin(), from.end(), to);
        };
        switch (x.kind) {
        case ExperimentKind::CvsD:
            oneHot(m_ops.c, c, traits(m_ops.c.elementType()).one);
            break;
        case ExperimentKind::RowsAD:
            oneHot(m_ops.a, a, oneA);
            if (neutralOnes)
                copy(seg.onesB, b);
            break;
        case ExperimentKind::ColsBD:
            oneHot(m_ops.b, b, oneB);
            if (neutralOnes)
                copy(seg.onesA, a);
            break;
        case ExperimentKind::KAB:
            oneHot(m_ops.a, a, oneA);
            copy(seg.bCode[static_cast<std::size_t>(x.bit)], b);
            break;
        case ExperimentKind::KBase:
            copy(seg.bCode[static_cast<std::size_t>(x.bit)], b);
            break;
        case ExperimentKind::MetaLocate:
        case ExperimentKind::MetaValue:
            oneHot(m_ops.a, a, oneA);
            copy(m_sparse->kByColumn(x.form), b);
            break;
        }
        if (w.e)
            m_sparse->fillMetadata(x, e);
    }

  private:
    struct Segments {
        std::vector<std::uint32_t> onesA, onesB;
        std::vector<std::vector<std::uint32_t>> bCode; // per bit: B element f = bit of (f+1)
    };

    template <typename ValueOf>
    static std::vector<std::uint32_t> segment(const FragmentLayout& l, int words, ValueOf valueOf) {
        std::vector<std::uint32_t> s(static_cast<std::size_t>(words) * 32, 0u);
        const auto els = l.elements();
        for (std::size_t f = 0; f < els.size(); ++f)
            if (const std::uint64_t v = valueOf(f))
                putElement(s.data(), 0, l, els[f], v);
        return s;
    }

    const ProbePlan& m_plan;
    const Operands& m_ops;
    std::vector<Segments> m_segments;
    std::optional<detail::SparseImages> m_sparse;
};

} // namespace

ProbePlan planProbe(const Instruction& in) {
    return planProbe(in, formsOf(in));
}

ProbePlan planProbe(const Instruction& in, std::vector<ProbeForm> forms) {
    const Operands ops = operandsOf(in);
    ProbePlan plan;
    plan.instruction = &in;
    plan.forms = std::move(forms);
    plan.words = registerWords(in);
    plan.kBits = detail::bitsFor(ops.b.elements().size());
    const bool sparse = (in.metadata != nullptr);
    const int nA = static_cast<int>(ops.a.elements().size());
    const int nB = static_cast<int>(ops.b.elements().size());
    const int nC = static_cast<int>(ops.c.elements().size());
    const std::int8_t patterns = sparse ? 2 : 1;

    const ImageBuilder builder(plan, ops);
    const lanemap::Form canonical = in.forms.front();
    auto& xs = plan.experiments;
    for (std::uint16_t fi = 0; fi < plan.forms.size(); ++fi) {
        const ProbeForm& form = plan.forms[fi];
        for (int c = 0; c < nC; ++c)
            xs.push_back({ExperimentKind::CvsD, fi, c});
        for (int e = 0; e < nA; ++e)
            xs.push_back({ExperimentKind::RowsAD, fi, e});
        for (std::int8_t p = 0; p < patterns; ++p)
            for (int f = 0; f < nB; ++f)
                xs.push_back({ExperimentKind::ColsBD, fi, f, -1, p});
        for (std::int8_t p = 0; p < patterns; ++p) {
            if (form.xorPopc())
                for (std::int16_t b = 0; b < plan.kBits; ++b)
                    xs.push_back({ExperimentKind::KBase, fi, -1, b, p});
            for (int e = 0; e < nA; ++e)
                for (std::int16_t b = 0; b < plan.kBits; ++b)
                    xs.push_back({ExperimentKind::KAB, fi, e, b, p});
        }
        // The metadata experiments run once per selector, with the canonical types: where the hardware reads
        // metadata does not depend on the element types (the mixed-type forms still run everything else).
        if (sparse && form.instruction == canonical)
            builder.sparse()->planMetadata(fi, xs);
    }

    const std::size_t per = plan.inWordsPerExperiment();
    plan.images.assign(per * xs.size(), 0u);
    plan.modes.resize(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
        builder.fill(xs[i], plan.images.data() + i * per);
        plan.modes[i] = static_cast<std::uint8_t>(xs[i].form);
    }
    return plan;
}

} // namespace lanemap::gpu
