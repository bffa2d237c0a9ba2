// mma.sp interpretation: the k of compressed A elements under the base patterns, and the metadata
// experiments. The observation for one run is the k its one-hot A element multiplied, read off D's row of
// that element (the metadata runs give B element (k, n) the value bit n of (k+1), so the row spells k+1
// across its 8 columns).
#include "interpret_detail.hpp"
#include "plan_detail.hpp"
#include "shared/metadata_check.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace lanemap::gpu::detail {

namespace {

class SparseK final : public KModel {
  public:
    explicit SparseK(const Instruction& in) {
        const sparse::Codec codec = codecFor(in, in.metadata->selectors.at(0).value);
        const FragmentLayout& a = *in.operand(Operand::A);
        const int K = a.cols(), P = a.matrices();
        for (int p = 0; p < 2; ++p) {
            std::vector<sparse::Placement> placed;
            std::string error;
            const std::vector<std::uint32_t> words(32, kPatternWord[p]);
            if (!codec.place(words, placed, error))
                throw std::logic_error("probe: " + error);
            std::vector<int> k(placed.size());
            std::vector<bool> selected(static_cast<std::size_t>(P * K), false);
            for (std::size_t e = 0; e < placed.size(); ++e) {
                k[e] = placed[e].col;
                selected[static_cast<std::size_t>(matrixOf(a.elements()[e]) * K + placed[e].col)] = true;
            }
            m_k[p] = std::move(k);
            m_selected[p] = std::move(selected);
            m_k0 = K;
        }
    }
    int patterns() const override { return 2; }
    int kOfA(int flat, int pattern) const override { return m_k[pattern][static_cast<std::size_t>(flat)]; }
    bool kSelected(int matrix, int k, int pattern) const override {
        return m_selected[pattern][static_cast<std::size_t>(matrix * m_k0 + k)];
    }
    std::string patternName(int pattern) const override {
        return pattern == 0 ? " (metadata 0b0100 everywhere)" : " (metadata 0b1110 everywhere)";
    }

  private:
    std::vector<int> m_k[2];
    std::vector<bool> m_selected[2];
    int m_k0 = 0;
};

int selectorIndex(const Instruction& in, int selector) {
    const auto& sels = in.metadata->selectors;
    for (std::size_t i = 0; i < sels.size(); ++i)
        if (sels[i].value == selector)
            return static_cast<int>(i);
    return 0;
}

} // namespace

std::unique_ptr<KModel> sparseKModel(const Instruction& in) {
    return std::make_unique<SparseK>(in);
}

int metadataFieldCount(const Instruction& in) {
    int n = 0;
    for (const MetadataSelector& s : in.metadata->selectors)
        n += static_cast<int>(s.fields.size());
    return n;
}

// The k the one-hot A element `flat` multiplied in a metadata run: kNoK if its D row spells nothing,
// kInconsistentK if D changed outside that row or holds values other than 0 and 1.
int readK(const Frame& frame, std::span<const std::uint32_t> block, const Element& a) {
    const auto& mine = frame.rowSlots[static_cast<std::size_t>(frame.rowKey(a))];
    std::uint32_t code = 0;
    const int nD = static_cast<int>(frame.layout.elements().size());
    std::size_t next = 0;
    for (int s = 0; s < nD; ++s) {
        const double v = frame.value(block, s);
        const bool inRow = next < mine.size() && mine[next] == s;
        if (inRow)
            ++next;
        if (v == 0.0)
            continue;
        if (!inRow || v != 1.0)
            return kInconsistentK;
        code |= 1u << frame.layout.elements()[static_cast<std::size_t>(s)].col;
    }
    return static_cast<int>(code) - 1;
}

void checkMetadata(const ProbePlan& plan, const Frame& frame, std::span<const std::uint32_t> raw,
                   std::uint16_t form, std::size_t begin, std::size_t end, const KModel& kModel,
                   Collector& verdicts, ObservedMapping& observed) {
    const Instruction& in = *plan.instruction;
    const FragmentLayout& a = *in.operand(Operand::A);
    if (std::none_of(plan.experiments.begin() + static_cast<std::ptrdiff_t>(begin),
                     plan.experiments.begin() + static_cast<std::ptrdiff_t>(end),
                     [](const Experiment& x) { return x.kind == ExperimentKind::MetaLocate; }))
        return; // a mixed-type form: its metadata runs are the canonical form's
    const sparse::Codec codec = codecFor(in, plan.forms[form].selector);
    const auto& fields = codec.fields();
    const int cellBase = selectorIndex(in, plan.forms[form].selector) * 4096;
    const std::string label = formLabel(plan, form);
    const std::size_t per = plan.outWordsPerExperiment();
    const int nA = static_cast<int>(a.elements().size());

    constexpr std::string_view kInconsistent = "D changed outside the element's row";
    std::vector<Locate> locate(static_cast<std::size_t>(nA));
    FieldFailures valueFailures;

    for (std::size_t x = begin; x < end; ++x) {
        const Experiment& ex = plan.experiments[x];
        if (ex.kind != ExperimentKind::MetaLocate && ex.kind != ExperimentKind::MetaValue)
            continue;
        // An element whose own k under metadata 0b0100 is already wrong is A's mismatch, not the metadata's.
        if (observed.a[form][static_cast<std::size_t>(ex.element)].col != kModel.kOfA(ex.element, 0))
            continue;
        const Element& el = a.elements()[static_cast<std::size_t>(ex.element)];
        const int k = readK(frame, raw.subspan(x * per, per), el);
        if (ex.kind == ExperimentKind::MetaLocate) {
            locate[static_cast<std::size_t>(ex.element)].add(ex.bit, k, kModel.kOfA(ex.element, 0),
                                                             kModel.kOfA(ex.element, 1), kInconsistent);
            continue;
        }
        // MetaValue: the engine's field of the element holds a valid value, every other nibble 0b0100.
        const unsigned value = in.metadata->validValues[static_cast<std::size_t>(ex.value)];
        std::vector<std::uint32_t> words(32, kPatternWord[0]);
        sparse::Codec::setField(words, fields[static_cast<std::size_t>(ex.field)], value);
        std::vector<sparse::Placement> placed;
        std::string error;
        if (!codec.place(words, placed, error))
            throw std::logic_error("probe: " + error);
        const int want = placed[static_cast<std::size_t>(ex.element)].col;
        if (k != want)
            valueFailures[ex.field].push_back(
                valueFailure(value, "T" + std::to_string(el.thread) + ":a" + std::to_string(el.index), want,
                             k, "(D changed outside its row)"));
    }

    // Where the hardware read each element's indices, against the engine's field.
    std::vector<sparse::Placement> base;
    {
        std::string error;
        if (!codec.place(std::vector<std::uint32_t>(32, kPatternWord[0]), base, error))
            throw std::logic_error("probe: " + error);
    }
    const sparse::StorageRule& rule = codec.rule();
    const std::vector<int> p0 = sparse::decodeField(rule.pattern, 0b0100);
    FieldFailures locateFailures; // engine field -> what was seen instead
    for (int e = 0; e < nA; ++e) {
        const Element& el = a.elements()[static_cast<std::size_t>(e)];
        const Locate& l = locate[static_cast<std::size_t>(e)];
        const sparse::Placement& pl = base[static_cast<std::size_t>(e)];
        int field = -1;
        for (std::size_t f = 0; f < fields.size(); ++f)
            if (fields[f].thread == pl.field.thread && fields[f].bitLo == pl.field.bitLo)
                field = static_cast<int>(f);
        const std::string who = "T" + std::to_string(el.thread) + ":a" + std::to_string(el.index);
        if (observed.a[form][static_cast<std::size_t>(e)].col != kModel.kOfA(e, 0))
            continue;
        if (!l.ok()) {
            locateFailures[field].push_back(who + " " + l.odd);
            continue;
        }
        ObservedField& o = observed.metadata[form][static_cast<std::size_t>(e)];
        o.thread = l.id / 8;
        o.nibble = l.id % 8;
        const int k0 = observed.a[form][static_cast<std::size_t>(e)].col;
        if (k0 >= 0) {
            const auto it = std::find(p0.begin(), p0.end(), k0 % rule.chunkCols);
            if (it != p0.end())
                o.slot = static_cast<int>(it - p0.begin()) * 2 / rule.kept;
        }
        if (l.id != pl.field.thread * 8 + pl.field.bitLo / 4)
            locateFailures[field].push_back(who + "'s indices were read from " + nibbleName(l.id));
    }
    for (int field : reportMetadata(fields, locateFailures, valueFailures, label, verdicts.mismatches))
        verdicts.badCells.insert({Operand::Metadata, cellBase + field});
}

} // namespace lanemap::gpu::detail
