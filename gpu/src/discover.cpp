// The wmma discovery method, CUDA-free: tagging, decoding and the store / mma confirmations around a
// WmmaDevice, and the simulated device tests use.

#include "lanemap/gpu/discover.hpp"

#include <chrono>
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

Verdict checkStore(WmmaDevice& device, const wmma::DiscoveredFragment& c, std::string& detail) {
    for (const Major layout : {Major::Row, Major::Col}) {
        FragmentForm f = c.form;
        f.layout = layout;
        const int n = f.rows() * f.cols();
        std::vector<long long> tags(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
            tags[static_cast<std::size_t>(i)] = i;
        std::vector<std::uint8_t> matrix;
        const int ldm = wmma::leadingDimension(f);
        if (std::string why = device.store(f, wordsFrom(c, tags), ldm, matrix); !why.empty()) {
            detail = "store: " + why;
            return Verdict::Unsupported;
        }
        for (int r = 0; r < f.rows(); ++r)
            for (int col = 0; col < f.cols(); ++col)
                if (matrixValue(f, matrix, ldm, r, col) != r * f.cols() + col) {
                    detail = "store ." + std::string(toString(layout)) + ": (" + std::to_string(r) + "," +
                             std::to_string(col) + ") holds " +
                             std::to_string(matrixValue(f, matrix, ldm, r, col));
                    return Verdict::Fail;
                }
    }
    return Verdict::Pass;
}

Verdict checkMma(WmmaDevice& device, const Variant& v, const wmma::DiscoveredFragment& a,
                 const wmma::DiscoveredFragment& b, const wmma::DiscoveredFragment& c, std::string& detail) {
    std::uint32_t state = static_cast<std::uint32_t>(std::hash<std::string>{}(v.spec));
    auto sample = [&](const wmma::DiscoveredFragment& d, ElementType t) {
        std::vector<long long> values(static_cast<std::size_t>(d.form.rows() * d.form.cols()));
        for (long long& x : values)
            x = sampleValue(t, state);
        return values;
    };
    const std::vector<long long> av = sample(a, v.atype), bv = sample(b, v.btype),
                                 cv = sample(c, ElementType::S8);
    std::vector<std::uint32_t> d;
    if (std::string why = device.mma(v, wordsFrom(a, av), wordsFrom(b, bv), wordsFrom(c, cv), d);
        !why.empty()) {
        detail = "mma: " + why;
        return Verdict::Unsupported;
    }
    std::vector<long long> got;
    if (!valuesFrom(c, d, got, detail)) {
        detail = "mma D: " + detail;
        return Verdict::Fail;
    }
    for (int i = 0; i < v.m; ++i)
        for (int j = 0; j < v.n; ++j) {
            long long sum = cv[static_cast<std::size_t>(i * v.n + j)];
            for (int k = 0; k < v.k; ++k) {
                const long long x = av[static_cast<std::size_t>(i * v.k + k)],
                                y = bv[static_cast<std::size_t>(k * v.n + j)];
                sum += v.atype == ElementType::B1 ? (x & y) : x * y;
            }
            if (got[static_cast<std::size_t>(i * v.n + j)] != sum) {
                detail = "mma D(" + std::to_string(i) + "," + std::to_string(j) +
                         ") = " + std::to_string(got[static_cast<std::size_t>(i * v.n + j)]) +
                         ", the CPU product says " + std::to_string(sum);
                return Verdict::Fail;
            }
        }
    return Verdict::Pass;
}
} // namespace

long long matrixValue(const FragmentForm& f, std::span<const std::uint8_t> matrix, int ldm, int row,
                      int col) {
    return wmma::decodeValue(memoryType(f.type), rawAt(f, matrix, ldm, row, col)).value_or(-1);
}

std::string SimulatedWmmaDevice::load(const FragmentForm& form, std::span<const std::uint8_t> matrix, int ldm,
                                      std::vector<std::uint32_t>& words) {
    const wmma::DiscoveredFragment* d = m_truth.fragment(form);
    if (!d)
        return "the simulated device has no " + form.key();
    words.assign(static_cast<std::size_t>(kLanes * form.words), 0);
    for (int lane = 0; lane < kLanes; ++lane)
        for (int i = 0; i < form.elementsPerLane(); ++i) {
            const Cell c = d->cell(lane, i);
            wmma::setElementBits(form,
                                 std::span(words).subspan(static_cast<std::size_t>(lane * form.words),
                                                          static_cast<std::size_t>(form.words)),
                                 i, rawAt(form, matrix, ldm, c.row, c.col));
        }
    if (scramble)
        words[static_cast<std::size_t>(5 % words.size())] ^= 0x7FFF7FFFu;
    return {};
}

std::string SimulatedWmmaDevice::store(const FragmentForm& form, std::span<const std::uint32_t> words,
                                       int ldm, std::vector<std::uint8_t>& matrix) {
    FragmentForm row = form;
    row.layout = Major::Row;
    const wmma::DiscoveredFragment* d = m_truth.fragment(row);
    if (!d)
        return "the simulated device has no " + row.key();
    matrix.assign(matrixBytes(form, ldm), 0);
    for (int lane = 0; lane < kLanes; ++lane)
        for (int i = 0; i < form.elementsPerLane(); ++i) {
            const Cell c = d->cell(lane, i);
            putAt(form, matrix, ldm, c.row, c.col,
                  wmma::elementBitsOf(form,
                                      words.subspan(static_cast<std::size_t>(lane * form.words),
                                                    static_cast<std::size_t>(form.words)),
                                      i));
        }
    return {};
}

std::string SimulatedWmmaDevice::mma(const Variant& v, std::span<const std::uint32_t> a,
                                     std::span<const std::uint32_t> b, std::span<const std::uint32_t> c,
                                     std::vector<std::uint32_t>& d) {
    const auto fa = wmma::formOf(v, Operand::A), fb = wmma::formOf(v, Operand::B),
               fc = wmma::formOf(v, Operand::C);
    const wmma::DiscoveredFragment* da = fa ? m_truth.fragment(*fa) : nullptr;
    const wmma::DiscoveredFragment* db = fb ? m_truth.fragment(*fb) : nullptr;
    const wmma::DiscoveredFragment* dc = fc ? m_truth.fragment(*fc) : nullptr;
    if (!da || !db || !dc)
        return "the simulated device has no fragments for " + v.spec;
    std::vector<long long> av, bv, cv;
    std::string why;
    if (!valuesFrom(*da, a, av, why) || !valuesFrom(*db, b, bv, why) || !valuesFrom(*dc, c, cv, why))
        return why;
    for (int i = 0; i < v.m; ++i)
        for (int j = 0; j < v.n; ++j)
            for (int k = 0; k < v.k; ++k) {
                const long long x = av[static_cast<std::size_t>(i * v.k + k)],
                                y = bv[static_cast<std::size_t>(k * v.n + j)];
                cv[static_cast<std::size_t>(i * v.n + j)] += v.atype == ElementType::B1 ? (x & y) : x * y;
            }
    d = wordsFrom(*dc, cv);
    return {};
}

wmma::DiscoveryReport discoverWmma(WmmaDevice& device, const std::vector<FragmentForm>& forms,
                                   const std::vector<const Variant*>& variants,
                                   const DiscoverProgress& progress) {
    wmma::DiscoveryReport report;
    report.device = device.info();
    report.sassTarget = device.sassTarget();
    report.date = isoNow();
    report.lanemapVersion = LANEMAP_VERSION;
    auto say = [&](const std::string& line) {
        if (progress)
            progress(line);
    };
    for (const FragmentForm& form : forms) {
        std::vector<std::vector<std::uint32_t>> dumps;
        std::string why;
        for (const wmma::TagRun& run : wmma::tagRuns(form)) {
            std::vector<std::uint32_t> words;
            if ((why = device.load(form, wmma::taggedMatrix(form, run), wmma::leadingDimension(form), words))
                    .empty())
                dumps.push_back(std::move(words));
            else
                break;
        }
        wmma::DiscoveredFragment fragment;
        if (why.empty() && wmma::decodeFragment(form, dumps, fragment, why)) {
            say("discovered\t" + form.key() + "\t" + std::to_string(fragment.numElements()) +
                " elements per lane, " + std::to_string(fragment.uniqueCells()) + " cells, held at most " +
                std::to_string(fragment.maxHolders()) + "x");
            report.fragments.push_back(std::move(fragment));
        } else {
            say("failed\t" + form.key() + "\t" + why);
            report.failures.push_back(form.key() + ": " + why);
        }
    }
    for (const Variant* v : variants) {
        const auto fa = wmma::formOf(*v, Operand::A), fb = wmma::formOf(*v, Operand::B),
                   fc = wmma::formOf(*v, Operand::C);
        const wmma::DiscoveredFragment* a = fa ? report.fragment(*fa) : nullptr;
        const wmma::DiscoveredFragment* b = fb ? report.fragment(*fb) : nullptr;
        const wmma::DiscoveredFragment* c = fc ? report.fragment(*fc) : nullptr;
        wmma::DiscoveryCheck check{v->spec, Verdict::Unsupported, Verdict::Unsupported, {}};
        if (!a || !b || !c) {
            check.detail = "a fragment of the variant was not discovered";
        } else {
            std::string storeDetail, mmaDetail;
            check.store = checkStore(device, *c, storeDetail);
            check.mma = checkMma(device, *v, *a, *b, *c, mmaDetail);
            check.detail = storeDetail + (storeDetail.empty() || mmaDetail.empty() ? "" : "; ") + mmaDetail;
        }
        say(std::string("checked\t") + v->spec + "\tstore " + std::string(toString(check.store)) + ", mma " +
            std::string(toString(check.mma)) + (check.detail.empty() ? "" : " (" + check.detail + ")"));
        report.checks.push_back(std::move(check));
    }
    return report;
}

} // namespace lanemap::gpu
