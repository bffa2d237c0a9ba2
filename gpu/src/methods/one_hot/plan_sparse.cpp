// mma.sp planning: the metadata words of every experiment, and the metadata experiments themselves.
//  - MetaLocate: for each compressed A element, 8 runs; in run r every metadata nibble whose id (lane * 8 +
//  nibble)
//    has bit r set holds P1, the others P0. Whether the element then multiplies its P0 or its P1 column
//    spells the id of the nibble the hardware read for it, whatever the engine says.
//  - MetaValue: for each compressed A element and each valid field value, the engine's field of that element
//  is
//    set to the value (every other nibble P0) and the column the element multiplies is read back.
#include "plan_detail.hpp"
#include "shared/metadata_check.hpp"

#include <stdexcept>

namespace lanemap::gpu::detail {

sparse::Codec codecFor(const Instruction& in, int selector) {
    std::string error;
    std::optional<sparse::Codec> codec = sparse::Codec::make(in, selector, error);
    if (!codec)
        throw std::logic_error("probe: " + error);
    return std::move(*codec);
}

SparseImages::SparseImages(const ProbePlan& plan, const FragmentLayout& a, const FragmentLayout& b)
    : m_plan(plan) {
    const Instruction& in = *plan.instruction;
    const std::vector<std::uint32_t> base(32, kPatternWord[0]);
    for (const ProbeForm& form : plan.forms) {
        m_codecs.emplace_back(codecFor(in, form.selector));
        std::vector<sparse::Placement> placed;
        std::string error;
        if (!m_codecs.back()->place(base, placed, error))
            throw std::logic_error("probe: " + error);
        std::vector<std::int16_t> fieldOf(a.elements().size(), -1);
        const auto& fields = m_codecs.back()->fields();
        for (std::size_t e = 0; e < placed.size(); ++e)
            for (std::size_t f = 0; f < fields.size(); ++f)
                if (fields[f].thread == placed[e].field.thread && fields[f].bitLo == placed[e].field.bitLo)
                    fieldOf[e] = static_cast<std::int16_t>(f);
        m_fieldOf.push_back(std::move(fieldOf));

        std::vector<std::uint32_t> seg(static_cast<std::size_t>(plan.words.b) * 32, 0u);
        const std::uint64_t oneB = traits(form.btype()).one;
        for (const Element& e : b.elements())
            if (((e.row + 1) >> e.col) & 1)
                putElement(seg.data(), 0, b, e, oneB);
        m_kByColumn.push_back(std::move(seg));
    }
}

void SparseImages::planMetadata(std::uint16_t form, std::vector<Experiment>& out) const {
    const auto& values = m_plan.instruction->metadata->validValues;
    const int nA = static_cast<int>(m_fieldOf[form].size());
    for (int e = 0; e < nA; ++e) {
        for (std::int16_t bit = 0; bit < kLocateBits; ++bit)
            out.push_back({ExperimentKind::MetaLocate, form, e, bit});
        for (std::size_t v = 0; v < values.size(); ++v)
            out.push_back({ExperimentKind::MetaValue, form, e, -1, 0,
                           m_fieldOf[form][static_cast<std::size_t>(e)], static_cast<std::int8_t>(v)});
    }
}

void SparseImages::fillMetadata(const Experiment& x, std::uint32_t* words) const {
    switch (x.kind) {
    case ExperimentKind::MetaLocate:
        for (int lane = 0; lane < 32; ++lane)
            words[lane] = locateWord(lane, x.bit);
        return;
    case ExperimentKind::MetaValue: {
        std::vector<std::uint32_t> md(32, kPatternWord[0]);
        const sparse::Codec& codec = *m_codecs[x.form];
        if (x.field < 0)
            throw std::logic_error("probe: an A element of " + m_plan.instruction->spec + " has no field");
        sparse::Codec::setField(md, codec.fields()[static_cast<std::size_t>(x.field)],
                                m_plan.instruction->metadata->validValues[static_cast<std::size_t>(x.value)]);
        std::copy(md.begin(), md.end(), words);
        return;
    }
    default:
        for (int lane = 0; lane < 32; ++lane)
            words[lane] = kPatternWord[x.pattern];
        return;
    }
}

} // namespace lanemap::gpu::detail
