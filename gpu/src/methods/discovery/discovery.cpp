// The wmma discovery method (discover.hpp, discovery.hpp), CUDA-free: its two-stage plan (tagged loads; then
// the store and mma checks built from the layouts the loads found), the interpretation, the simulated
// instructions, and the report gathered from the pipeline's results.

#include "lanemap/gpu/discover.hpp"

#include "discovery.hpp"
#include "methods/method_rows.hpp"

#include "lanemap/catalog.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>

namespace lanemap::gpu {

namespace {
using wmma::FragmentForm;
constexpr int kLanes = 32;

std::size_t slotOf(const FragmentForm& f, int ldm, int row, int col) {
    return static_cast<std::size_t>(f.layout == Major::Row ? row * ldm + col : col * ldm + row);
}

std::uint64_t rawAt(const FragmentForm& f, std::span<const std::uint8_t> m, int ldm, int row, int col) {
    const int bits = f.elementBits();
    const std::size_t bit = slotOf(f, ldm, row, col) * static_cast<std::size_t>(bits);
    if (bits < 8)
        return (m[bit / 8] >> (bit % 8)) & ((1u << bits) - 1);
    std::uint64_t v = 0;
    for (int b = bits / 8 - 1; b >= 0; --b)
        v = (v << 8) | m[bit / 8 + static_cast<std::size_t>(b)];
    return v;
}

void putAt(const FragmentForm& f, std::span<std::uint8_t> m, int ldm, int row, int col, std::uint64_t value) {
    const int bits = f.elementBits();
    const std::size_t bit = slotOf(f, ldm, row, col) * static_cast<std::size_t>(bits);
    if (bits < 8) {
        const int shift = static_cast<int>(bit % 8);
        const auto mask = static_cast<std::uint8_t>(((1u << bits) - 1) << shift);
        m[bit / 8] = static_cast<std::uint8_t>((m[bit / 8] & ~mask) | ((value << shift) & mask));
        return;
    }
    for (int b = 0; b < bits / 8; ++b)
        m[bit / 8 + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(value >> (8 * b));
}

std::size_t matrixBytes(const FragmentForm& f, int ldm) {
    const int outer = f.layout == Major::Row ? f.rows() : f.cols();
    return static_cast<std::size_t>(outer) * static_cast<std::size_t>(ldm) *
           static_cast<std::size_t>(f.elementBits()) / 8;
}

ElementType memoryType(ElementType t) {
    return t == ElementType::TF32 ? ElementType::F32 : t;
}

// Lane-major words of a fragment whose every slot holds the value of its cell.
std::vector<std::uint32_t> wordsFrom(const wmma::DiscoveredFragment& d,
                                     const std::vector<long long>& values) {
    std::vector<std::uint32_t> words(static_cast<std::size_t>(kLanes * d.form.words), 0);
    for (int lane = 0; lane < kLanes; ++lane)
        for (int i = 0; i < d.numElements(); ++i) {
            const Cell c = d.cell(lane, i);
            const auto bits = wmma::encodeValue(
                memoryType(d.form.type), values[static_cast<std::size_t>(c.row * d.form.cols() + c.col)]);
            wmma::setElementBits(d.form,
                                 std::span(words).subspan(static_cast<std::size_t>(lane * d.form.words),
                                                          static_cast<std::size_t>(d.form.words)),
                                 i, bits.value_or(0));
        }
    return words;
}

// The values a fragment's words hold, per cell (the last holder wins; the check compares every holder).
bool valuesFrom(const wmma::DiscoveredFragment& d, std::span<const std::uint32_t> words,
                std::vector<long long>& values, std::string& why) {
    values.assign(static_cast<std::size_t>(d.form.rows() * d.form.cols()), 0);
    std::vector<bool> seen(values.size(), false);
    for (int lane = 0; lane < kLanes; ++lane)
        for (int i = 0; i < d.numElements(); ++i) {
            const Cell c = d.cell(lane, i);
            const auto v = wmma::decodeValue(
                memoryType(d.form.type),
                wmma::elementBitsOf(d.form,
                                    words.subspan(static_cast<std::size_t>(lane * d.form.words),
                                                  static_cast<std::size_t>(d.form.words)),
                                    i));
            const std::size_t cell = static_cast<std::size_t>(c.row * d.form.cols() + c.col);
            if (!v || (seen[cell] && values[cell] != *v)) {
                why = "lane " + std::to_string(lane) + " x[" + std::to_string(i) + "] (" +
                      std::to_string(c.row) + "," + std::to_string(c.col) + ") " +
                      (v ? "disagrees with another holder" : "holds no integer");
                return false;
            }
            values[cell] = *v;
            seen[cell] = true;
        }
    return true;
}

// Small values every type holds exactly, and whose products and sums stay exact.
long long sampleValue(ElementType t, std::uint32_t& state) {
    state = state * 1664525u + 1013904223u;
    const int r = static_cast<int>((state >> 16) % 5);
    switch (t) {
    case ElementType::B1:
        return r & 1;
    case ElementType::U8:
    case ElementType::U4:
        return r % 4;
    default:
        return r - 2;
    }
}

std::string isoNow() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// Where a discovered fragment first differs from a recorded one; empty when they agree.
std::string differsAt(const wmma::DiscoveredFragment& got, const wmma::DiscoveredFragment& want) {
    for (int lane = 0; lane < kLanes; ++lane)
        for (int i = 0; i < got.numElements(); ++i) {
            const Cell g = got.cell(lane, i), w = want.cell(lane, i);
            if (g.row != w.row || g.col != w.col)
                return "lane " + std::to_string(lane) + " x[" + std::to_string(i) + "] holds (" +
                       std::to_string(g.row) + "," + std::to_string(g.col) + "), recorded (" +
                       std::to_string(w.row) + "," + std::to_string(w.col) + ")";
        }
    return {};
}

// The instructions the recorded report's layouts give: what SimulatedDevice runs discovery plans on.
SimulatedWmma& recordedSimulator() {
    static SimulatedWmma simulator = [] {
        const std::vector<wmma::RecordedDiscovery>& recorded = wmma::recordedDiscoveries();
        return SimulatedWmma(recorded.empty() ? wmma::DiscoveryReport{} : recorded.front().report);
    }();
    return simulator;
}

} // namespace

// ---- The plan ----

// Named, not anonymous: DiscoveryProbe (discovery.hpp) holds the Stages.
namespace discovery {

// One wmma instruction of a stage. Its output in the stage's raw words: a status word, then `outWords`.
struct Op {
    enum class Kind : std::uint8_t { Load, Store, Mma };
    Kind kind = Kind::Load;
    FragmentForm form; // load, store: the fragment; mma: the accumulator's
    int ldm = 0;
    std::vector<std::uint8_t> matrix;   // load: the tagged matrix
    std::vector<std::uint32_t> a, b, c; // store: a = the fragment's words; mma: the three operands
    std::size_t outWords = 0;
};

namespace {

// Status words: the op ran; there is no kernel for it; the fragment that ran has another word count
// (in the bits above the low byte).
constexpr std::uint32_t kRan = 0, kNoKernel = 1, kWordsDiffer = 2;

std::string wordsMismatch(int words, int expected) {
    return "the CUDA fragment has " + std::to_string(words) + " words per lane, the ISA table " +
           std::to_string(expected);
}

// Why an op did not run, from its status word; empty when it ran.
std::string statusText(std::uint32_t status, const Op& op, const std::string& spec) {
    if ((status & 0xFF) == kRan)
        return {};
    if ((status & 0xFF) == kWordsDiffer)
        return wordsMismatch(static_cast<int>(status >> 8), op.form.words);
    switch (op.kind) {
    case Op::Kind::Load:
        return "this build has no kernel for " + op.form.key();
    case Op::Kind::Store:
        return "this build has no store kernel for " + op.form.key();
    case Op::Kind::Mma:
        return "this build has no wmma.mma kernel for " + spec;
    }
    return {};
}

std::size_t stageWords(const std::vector<Op>& ops) {
    std::size_t n = 1; // the SASS version
    for (const Op& op : ops)
        n += 1 + op.outWords;
    return n;
}

} // namespace

// What the loads of stage 1 found, read from its raw words.
struct Loads {
    int sassVersion = 0;
    std::vector<wmma::DiscoveredFragment> fragments;
    std::vector<std::pair<FragmentForm, std::string>> failures;
    const wmma::DiscoveredFragment* fragment(const FragmentForm& f) const {
        for (const wmma::DiscoveredFragment& d : fragments)
            if (d.form == f)
                return &d;
        return nullptr;
    }
};

class Stages {
  public:
    explicit Stages(const Instruction& in) : m_instruction(in) {
        for (const FragmentForm& form : discoveryForms(in))
            for (const wmma::TagRun& run : wmma::tagRuns(form)) {
                Op op;
                op.form = form;
                op.ldm = wmma::leadingDimension(form);
                op.matrix = wmma::taggedMatrix(form, run);
                op.outWords = static_cast<std::size_t>(kLanes * form.words);
                m_loads.push_back(std::move(op));
            }
    }

    const Instruction& instruction() const { return m_instruction; }
    int experiments() const { return static_cast<int>(m_loads.size() + m_checks.size()); }
    std::size_t outWords() const { return stageWords(ops()); }
    std::vector<std::uint32_t> simulate() const;
    void run(WmmaInstructions& x, std::vector<std::uint32_t>& raw) const;
    const std::vector<Op>& ops() const { return m_stage == 0 ? m_loads : m_checks; }

    bool advance(std::span<const std::uint32_t> raw) {
        if (m_stage != 0)
            return false;
        const Loads loads = readLoads(raw);
        const auto fa = wmma::formOf(m_instruction, Operand::A), fb = wmma::formOf(m_instruction, Operand::B),
                   fc = wmma::formOf(m_instruction, Operand::C);
        const wmma::DiscoveredFragment* a = fa ? loads.fragment(*fa) : nullptr;
        const wmma::DiscoveredFragment* b = fb ? loads.fragment(*fb) : nullptr;
        const wmma::DiscoveredFragment* c = fc ? loads.fragment(*fc) : nullptr;
        if (!a || !b || !c)
            return false;
        // wmma.store.d of C's fragment with every cell's index, in both memory layouts.
        for (const Major layout : {Major::Row, Major::Col}) {
            Op op;
            op.kind = Op::Kind::Store;
            op.form = c->form;
            op.form.layout = layout;
            op.ldm = wmma::leadingDimension(op.form);
            std::vector<long long> tags(static_cast<std::size_t>(op.form.rows() * op.form.cols()));
            for (std::size_t i = 0; i < tags.size(); ++i)
                tags[i] = static_cast<long long>(i);
            op.a = wordsFrom(*c, tags);
            op.outWords = (matrixBytes(op.form, op.ldm) + 3) / 4;
            m_checks.push_back(std::move(op));
        }
        // One wmma.mma on small values every type holds exactly.
        std::uint32_t state = static_cast<std::uint32_t>(std::hash<std::string>{}(m_instruction.spec));
        auto sample = [&](const wmma::DiscoveredFragment& d, ElementType t) {
            std::vector<long long> values(static_cast<std::size_t>(d.form.rows() * d.form.cols()));
            for (long long& x : values)
                x = sampleValue(t, state);
            return values;
        };
        m_av = sample(*a, m_instruction.atype);
        m_bv = sample(*b, m_instruction.btype);
        m_cv = sample(*c, ElementType::S8);
        Op op;
        op.kind = Op::Kind::Mma;
        op.form = c->form;
        op.a = wordsFrom(*a, m_av);
        op.b = wordsFrom(*b, m_bv);
        op.c = wordsFrom(*c, m_cv);
        op.outWords = static_cast<std::size_t>(kLanes * c->form.words);
        m_checks.push_back(std::move(op));
        m_stage = 1;
        return true;
    }

    Interpretation interpret(std::span<const std::uint32_t> raw) const;

  private:
    Loads readLoads(std::span<const std::uint32_t> raw) const;
    wmma::DiscoveryCheck readChecks(std::span<const std::uint32_t> raw,
                                    const wmma::DiscoveredFragment& c) const;

    const Instruction& m_instruction;
    std::vector<Op> m_loads, m_checks;
    int m_stage = 0;
    std::vector<long long> m_av, m_bv, m_cv; // the mma check's operand values
};

Loads Stages::readLoads(std::span<const std::uint32_t> raw) const {
    Loads out;
    out.sassVersion = static_cast<int>(raw[0]);
    std::size_t at = 1;
    std::size_t i = 0;
    while (i < m_loads.size()) {
        const FragmentForm form = m_loads[i].form;
        std::vector<std::vector<std::uint32_t>> dumps;
        std::string why;
        for (; i < m_loads.size() && m_loads[i].form == form; ++i) {
            const Op& op = m_loads[i];
            const std::uint32_t status = raw[at];
            if (why.empty()) {
                why = statusText(status, op, m_instruction.spec);
                if (why.empty())
                    dumps.emplace_back(raw.begin() + static_cast<std::ptrdiff_t>(at + 1),
                                       raw.begin() + static_cast<std::ptrdiff_t>(at + 1 + op.outWords));
            }
            at += 1 + op.outWords;
        }
        wmma::DiscoveredFragment fragment;
        if (why.empty() && wmma::decodeFragment(form, dumps, fragment, why))
            out.fragments.push_back(std::move(fragment));
        else
            out.failures.emplace_back(form, why);
    }
    return out;
}

wmma::DiscoveryCheck Stages::readChecks(std::span<const std::uint32_t> raw,
                                        const wmma::DiscoveredFragment& c) const {
    wmma::DiscoveryCheck check{m_instruction.spec, Verdict::Pass, Verdict::Pass, {}};
    std::string storeDetail, mmaDetail;
    std::size_t at = stageWords(m_loads) + 1;
    for (const Op& op : m_checks) {
        const std::uint32_t status = raw[at];
        const std::span<const std::uint32_t> out = raw.subspan(at + 1, op.outWords);
        at += 1 + op.outWords;
        if (op.kind == Op::Kind::Store) {
            if (check.store != Verdict::Pass)
                continue; // the first failed layout says why
            if (std::string why = statusText(status, op, m_instruction.spec); !why.empty()) {
                check.store = Verdict::Unsupported;
                storeDetail = "store: " + why;
                continue;
            }
            std::vector<std::uint8_t> matrix(out.size() * 4);
            std::memcpy(matrix.data(), out.data(), matrix.size());
            const FragmentForm& f = op.form;
            for (int r = 0; r < f.rows() && check.store == Verdict::Pass; ++r)
                for (int col = 0; col < f.cols(); ++col)
                    if (const long long got = matrixValue(f, matrix, op.ldm, r, col);
                        got != r * f.cols() + col) {
                        check.store = Verdict::Fail;
                        storeDetail = "store ." + std::string(toString(f.layout)) + ": (" +
                                      std::to_string(r) + "," + std::to_string(col) + ") holds " +
                                      std::to_string(got);
                        break;
                    }
            continue;
        }
        if (std::string why = statusText(status, op, m_instruction.spec); !why.empty()) {
            check.mma = Verdict::Unsupported;
            mmaDetail = "mma: " + why;
            continue;
        }
        std::vector<long long> got;
        if (!valuesFrom(c, out, got, mmaDetail)) {
            check.mma = Verdict::Fail;
            mmaDetail = "mma D: " + mmaDetail;
            continue;
        }
        const Variant& v = m_instruction;
        for (int i = 0; i < v.m && check.mma == Verdict::Pass; ++i)
            for (int j = 0; j < v.n; ++j) {
                long long sum = m_cv[static_cast<std::size_t>(i * v.n + j)];
                for (int k = 0; k < v.k; ++k) {
                    const long long x = m_av[static_cast<std::size_t>(i * v.k + k)],
                                    y = m_bv[static_cast<std::size_t>(k * v.n + j)];
                    sum += v.atype == ElementType::B1 ? (x & y) : x * y;
                }
                if (got[static_cast<std::size_t>(i * v.n + j)] != sum) {
                    check.mma = Verdict::Fail;
                    mmaDetail = "mma D(" + std::to_string(i) + "," + std::to_string(j) +
                                ") = " + std::to_string(got[static_cast<std::size_t>(i * v.n + j)]) +
                                ", the CPU product says " + std::to_string(sum);
                    break;
                }
            }
    }
    check.detail = storeDetail + (storeDetail.empty() || mmaDetail.empty() ? "" : "; ") + mmaDetail;
    return check;
}

Interpretation Stages::interpret(std::span<const std::uint32_t> raw) const {
    auto found = std::make_shared<Discovered>();
    Loads loads = readLoads(raw);
    found->sassTarget = loads.sassVersion > 0 ? "sm_" + std::to_string(loads.sassVersion) : "";
    found->check = {m_instruction.spec, Verdict::Unsupported, Verdict::Unsupported, {}};
    const auto fc = wmma::formOf(m_instruction, Operand::C);
    const wmma::DiscoveredFragment* c = fc ? loads.fragment(*fc) : nullptr;
    if (m_stage == 1 && c)
        found->check = readChecks(raw, *c);
    else
        found->check.detail = "a fragment of the variant was not discovered";

    Interpretation out;
    ProbeResult& r = out.result;
    r.spec = m_instruction.spec;
    r.experiments = experiments();
    for (const wmma::DiscoveredFragment& f : loads.fragments)
        r.cellsChecked += static_cast<int>(f.cells.size());
    // The verdict: every fragment discovered, both checks passed, and the layouts the recorded report of
    // this target holds (when there is one) reproduced.
    std::vector<std::string> wrong;
    for (const auto& [form, why] : loads.failures)
        wrong.push_back(form.key() + " not discovered: " + why);
    const wmma::RecordedDiscovery* recorded =
        found->sassTarget.empty() ? nullptr : wmma::recordedFor(found->sassTarget);
    for (const wmma::DiscoveredFragment& f : loads.fragments) {
        const wmma::DiscoveredFragment* want = recorded ? recorded->report.fragment(f.form) : nullptr;
        if (!want)
            continue;
        if (std::string at = differsAt(f, *want); !at.empty()) {
            wrong.push_back(f.form.key() + " differs from " + recorded->file + ": " + at);
            ++r.cellsMismatched;
        }
    }
    const wmma::DiscoveryCheck& check = found->check;
    if (check.store == Verdict::Fail || check.mma == Verdict::Fail)
        wrong.push_back(check.detail);
    if (!wrong.empty()) {
        r.verdict = Verdict::Fail;
        for (const std::string& w : wrong)
            r.reason += (r.reason.empty() ? "" : "; ") + w;
    } else if (check.store != Verdict::Pass || check.mma != Verdict::Pass) {
        r.verdict = Verdict::Unsupported;
        r.reason = check.detail;
    } else {
        r.verdict = Verdict::Pass;
        r.findings.push_back(
            recorded ? "discovered on " + found->sassTarget + " exactly as " + recorded->file + " records"
                     : "discovered on " + found->sassTarget +
                           ", a target with no recorded report (lanemap-cli discover --json records one)");
    }
    found->fragments = std::move(loads.fragments);
    found->failures = std::move(loads.failures);
    out.discovery = std::move(found);
    return out;
}

std::vector<std::uint32_t> Stages::simulate() const {
    std::vector<std::uint32_t> raw(outWords());
    run(recordedSimulator(), raw);
    return raw;
}

void Stages::run(WmmaInstructions& x, std::vector<std::uint32_t>& raw) const {
    raw.assign(outWords(), 0);
    raw[0] = static_cast<std::uint32_t>(std::max(x.sassVersion(), 0));
    std::size_t at = 1;
    for (const Op& op : ops()) {
        const std::span<std::uint32_t> out(raw.data() + at + 1, op.outWords);
        int words = op.form.words;
        bool ran = false;
        switch (op.kind) {
        case Op::Kind::Load:
            ran = x.load(op.form, op.matrix, op.ldm, out, words);
            break;
        case Op::Kind::Store: {
            std::vector<std::uint8_t> matrix(matrixBytes(op.form, op.ldm), 0xFF);
            ran = x.store(op.form, op.a, op.ldm, matrix, words);
            std::memcpy(out.data(), matrix.data(), matrix.size());
            break;
        }
        case Op::Kind::Mma:
            ran = x.mma(m_instruction, op.a, op.b, op.c, out, words);
            break;
        }
        raw[at] = !ran                     ? kNoKernel
                  : words != op.form.words ? kWordsDiffer | static_cast<std::uint32_t>(words) << 8
                                           : kRan;
        at += 1 + op.outWords;
    }
}

} // namespace discovery

DiscoveryProbe::DiscoveryProbe(const Instruction& instruction)
    : m_stages(std::make_unique<discovery::Stages>(instruction)) {}
DiscoveryProbe::~DiscoveryProbe() = default;

std::vector<ProbeForm> DiscoveryProbe::forms(const Instruction& in) {
    std::vector<ProbeForm> out;
    for (const FragmentForm& f : discoveryForms(in))
        out.push_back(ProbeForm{Form{f.type, f.type}, -1, f.ptxLoad()});
    return out;
}

const Instruction& DiscoveryProbe::instruction() const {
    return m_stages->instruction();
}
int DiscoveryProbe::experiments() const {
    return m_stages->experiments();
}
std::size_t DiscoveryProbe::outWords() const {
    return m_stages->outWords();
}
std::vector<std::uint32_t> DiscoveryProbe::simulate() const {
    return m_stages->simulate();
}
Interpretation DiscoveryProbe::interpret(std::span<const std::uint32_t> raw) const {
    return m_stages->interpret(raw);
}
bool DiscoveryProbe::advance(std::span<const std::uint32_t> raw) {
    return m_stages->advance(raw);
}
void DiscoveryProbe::runStage(WmmaInstructions& instructions, std::vector<std::uint32_t>& raw) const {
    m_stages->run(instructions, raw);
}

std::vector<FragmentForm> discoveryForms(const Variant& v) {
    std::vector<FragmentForm> forms;
    for (const Operand op : {Operand::A, Operand::B, Operand::C})
        if (const auto f = wmma::formOf(v, op))
            forms.push_back(*f);
    if (const auto c = wmma::formOf(v, Operand::C)) {
        FragmentForm col = *c;
        col.layout = Major::Col;
        forms.push_back(col);
    }
    return forms;
}

DeviceRun SimulatedWmmaDevice::run(const Variant& variant, const ProbeMethod& method,
                                   const PlannedProbe& plan, std::vector<std::uint32_t>& raw) {
    const DiscoveryProbe* discovery = MethodRows::planOf<DiscoveryProbe>(method, plan);
    if (!discovery)
        return SimulatedDevice::run(variant, method, plan, raw);
    discovery->runStage(m_instructions, raw);
    return {};
}

long long matrixValue(const FragmentForm& f, std::span<const std::uint8_t> matrix, int ldm, int row,
                      int col) {
    return wmma::decodeValue(memoryType(f.type), rawAt(f, matrix, ldm, row, col)).value_or(-1);
}

int SimulatedWmma::sassVersion() const {
    const std::string& t = m_truth.sassTarget; // "sm_90", "sm_90a"
    return t.size() > 3 ? std::atoi(t.c_str() + 3) : 0;
}

bool SimulatedWmma::load(const FragmentForm& form, std::span<const std::uint8_t> matrix, int ldm,
                         std::span<std::uint32_t> words, int& fragmentWords) {
    const wmma::DiscoveredFragment* d = m_truth.fragment(form);
    if (!d)
        return false;
    fragmentWords = form.words;
    std::fill(words.begin(), words.end(), 0u);
    for (int lane = 0; lane < kLanes; ++lane)
        for (int i = 0; i < form.elementsPerLane(); ++i) {
            const Cell c = d->cell(lane, i);
            wmma::setElementBits(form,
                                 words.subspan(static_cast<std::size_t>(lane * form.words),
                                               static_cast<std::size_t>(form.words)),
                                 i, rawAt(form, matrix, ldm, c.row, c.col));
        }
    if (scramble)
        words[5 % words.size()] ^= 0x7FFF7FFFu;
    return true;
}

bool SimulatedWmma::store(const FragmentForm& form, std::span<const std::uint32_t> words, int ldm,
                          std::span<std::uint8_t> matrix, int& fragmentWords) {
    FragmentForm row = form;
    row.layout = Major::Row;
    const wmma::DiscoveredFragment* d = m_truth.fragment(row);
    if (!d)
        return false;
    fragmentWords = form.words;
    std::fill(matrix.begin(), matrix.end(), std::uint8_t{0});
    for (int lane = 0; lane < kLanes; ++lane)
        for (int i = 0; i < form.elementsPerLane(); ++i) {
            const Cell c = d->cell(lane, i);
            putAt(form, matrix, ldm, c.row, c.col,
                  wmma::elementBitsOf(form,
                                      words.subspan(static_cast<std::size_t>(lane * form.words),
                                                    static_cast<std::size_t>(form.words)),
                                      i));
        }
    return true;
}

bool SimulatedWmma::mma(const Variant& v, std::span<const std::uint32_t> a, std::span<const std::uint32_t> b,
                        std::span<const std::uint32_t> c, std::span<std::uint32_t> d, int& fragmentWords) {
    const auto fa = wmma::formOf(v, Operand::A), fb = wmma::formOf(v, Operand::B),
               fc = wmma::formOf(v, Operand::C);
    const wmma::DiscoveredFragment* da = fa ? m_truth.fragment(*fa) : nullptr;
    const wmma::DiscoveredFragment* db = fb ? m_truth.fragment(*fb) : nullptr;
    const wmma::DiscoveredFragment* dc = fc ? m_truth.fragment(*fc) : nullptr;
    if (!da || !db || !dc)
        return false;
    fragmentWords = dc->form.words;
    std::vector<long long> av, bv, cv;
    std::string why;
    if (!valuesFrom(*da, a, av, why) || !valuesFrom(*db, b, bv, why) || !valuesFrom(*dc, c, cv, why)) {
        std::fill(d.begin(), d.end(), 0xFFFFFFFFu); // garbage in, garbage out: the check will say so
        return true;
    }
    for (int i = 0; i < v.m; ++i)
        for (int j = 0; j < v.n; ++j)
            for (int k = 0; k < v.k; ++k) {
                const long long x = av[static_cast<std::size_t>(i * v.k + k)],
                                y = bv[static_cast<std::size_t>(k * v.n + j)];
                cv[static_cast<std::size_t>(i * v.n + j)] += v.atype == ElementType::B1 ? (x & y) : x * y;
            }
    const std::vector<std::uint32_t> words = wordsFrom(*dc, cv);
    std::copy(words.begin(), words.end(), d.begin());
    return true;
}

wmma::DiscoveryReport discoverOn(Device& device, const std::vector<FragmentForm>& forms,
                                 const std::vector<const Variant*>& variants, const Progress& progress,
                                 const std::atomic<bool>* cancel) {
    wmma::DiscoveryReport report;
    report.device = device.info();
    report.date = isoNow();
    report.lanemapVersion = LANEMAP_VERSION;
    std::vector<bool> finished;
    const std::vector<Interpretation> runs = interpretMany(device, variants, progress, cancel, &finished);
    for (const Interpretation& run : runs)
        if (run.discovery && !run.discovery->sassTarget.empty()) {
            report.sassTarget = run.discovery->sassTarget;
            break;
        }
    // A form several variants load is reported once, as the first of them found it; a variant that found
    // it otherwise makes it a failure (the hardware does not answer the same way twice).
    for (const FragmentForm& form : forms) {
        const wmma::DiscoveredFragment* first = nullptr;
        std::string why, conflict;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            if (!finished[i])
                continue;
            const Discovered* d = runs[i].discovery.get();
            if (!d) {
                const std::vector<FragmentForm> its = discoveryForms(*variants[i]);
                if (why.empty() && std::find(its.begin(), its.end(), form) != its.end())
                    why = runs[i].result.reason;
                continue;
            }
            for (const wmma::DiscoveredFragment& f : d->fragments)
                if (f.form == form) {
                    if (!first)
                        first = &f;
                    else if (conflict.empty() && !differsAt(f, *first).empty())
                        conflict = "discovered differently while checking " + variants[i]->spec + ": " +
                                   differsAt(f, *first);
                }
            for (const auto& [failed, reason] : d->failures)
                if (failed == form && why.empty())
                    why = reason;
        }
        if (first && conflict.empty())
            report.fragments.push_back(*first);
        else
            report.failures.push_back(form.key() + ": " +
                                      (!conflict.empty() ? conflict
                                       : !why.empty()    ? why
                                                         : "no variant checked loads it"));
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!finished[i])
            continue;
        if (runs[i].discovery)
            report.checks.push_back(runs[i].discovery->check);
        else
            report.checks.push_back(
                {variants[i]->spec, Verdict::Unsupported, Verdict::Unsupported, runs[i].result.reason});
    }
    return report;
}

std::vector<std::string> discoveryLines(const wmma::DiscoveryReport& report,
                                        const std::vector<FragmentForm>& forms) {
    std::vector<std::string> lines;
    for (const FragmentForm& form : forms) {
        if (const wmma::DiscoveredFragment* f = report.fragment(form)) {
            lines.push_back("discovered\t" + form.key() + "\t" + std::to_string(f->numElements()) +
                            " elements per lane, " + std::to_string(f->uniqueCells()) +
                            " cells, held at most " + std::to_string(f->maxHolders()) + "x");
            continue;
        }
        const std::string prefix = form.key() + ": ";
        for (const std::string& failure : report.failures)
            if (failure.rfind(prefix, 0) == 0)
                lines.push_back("failed\t" + form.key() + "\t" + failure.substr(prefix.size()));
    }
    for (const wmma::DiscoveryCheck& c : report.checks)
        lines.push_back(std::string("checked\t") + c.spec + "\tstore " + std::string(toString(c.store)) +
                        ", mma " + std::string(toString(c.mma)) +
                        (c.detail.empty() ? "" : " (" + c.detail + ")"));
    return lines;
}

} // namespace lanemap::gpu
