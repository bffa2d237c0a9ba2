// wmma discovery, the CUDA-free half: the index-tagged matrices the GPU loads, the decoder that turns the
// fragment registers it dumps into placements, and the discovery report (JSON, validation). Linked into the
// build-time report embedder too, so it depends on no catalog.

#include "lanemap/excerpt.hpp"
#include "lanemap/probe_report.hpp"
#include "lanemap/wmma.hpp"

#include "io/json_limits.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <sys/stat.h>

namespace lanemap::wmma {

using nlohmann::ordered_json;

namespace {
constexpr int kLanes = 32;
constexpr std::string_view kFormat = "lanemap-discovery/1";

int bitsFor(long long value) { // bits to write 0..value
    int bits = 1;
    while ((1LL << bits) <= value)
        ++bits;
    return bits;
}

int planesOf(const FragmentForm& f) {
    const int p = planeBits(f.type);
    const int n = f.rows() * f.cols();
    return (bitsFor(n) + p - 1) / p; // tags 0..n: n itself (the padding) must stay distinct
}

std::uint16_t halfOf(long long v) {
    if (v == 0)
        return 0;
    const std::uint16_t sign = v < 0 ? std::uint16_t{0x8000} : std::uint16_t{0};
    unsigned long long a = static_cast<unsigned long long>(v < 0 ? -v : v);
    const int e = static_cast<int>(std::bit_width(a)) - 1; // a = 1.m * 2^e
    const unsigned long long mant = e >= 10 ? (a >> (e - 10)) : (a << (10 - e));
    return static_cast<std::uint16_t>(sign | ((e + 15) << 10) | (mant & 0x3FF));
}

std::optional<double> halfValue(std::uint16_t h) {
    const int e = (h >> 10) & 0x1F;
    const int m = h & 0x3FF;
    if (e == 31)
        return std::nullopt;
    const double mag = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -mag : mag;
}

std::optional<long long> integral(double d) {
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e15)
        return std::nullopt;
    return static_cast<long long>(d);
}

// The type the tagged matrix holds in memory: .tf32 is loaded from 32-bit floats.
ElementType memoryType(ElementType t) {
    return t == ElementType::TF32 ? ElementType::F32 : t;
}
} // namespace

int planeBits(ElementType type) {
    switch (type) {
    case ElementType::F16:
    case ElementType::TF32:
        return 11; // 2^11 = 2048 is exact, every integer below it too
    case ElementType::BF16:
        return 8;
    case ElementType::F32:
        return 24;
    case ElementType::F64:
        return 31;
    case ElementType::S32:
        return 30;
    default: // integers: the non-negative values of the element's bits
        return traits(type).bits - (traits(type).isSigned ? 1 : 0);
    }
}

std::vector<TagRun> tagRuns(const FragmentForm& form) {
    std::vector<TagRun> runs;
    for (const bool complement : {false, true})
        for (int p = 0; p < planesOf(form); ++p)
            runs.push_back({complement, p});
    return runs;
}

int leadingDimension(const FragmentForm& form) {
    const int inner = form.layout == Major::Row ? form.cols() : form.rows();
    return inner + std::max(1, 128 / form.elementBits());
}

std::optional<std::uint64_t> encodeValue(ElementType type, long long v) {
    switch (type) {
    case ElementType::F16:
        if (std::llabs(v) > 2048) // every integer up to 2^11 is exact in f16
            return std::nullopt;
        return halfOf(v);
    case ElementType::BF16:
    case ElementType::TF32:
    case ElementType::F32: {
        const float f = static_cast<float>(v);
        if (static_cast<long long>(f) != v)
            return std::nullopt;
        const std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
        const std::uint32_t dropped = type == ElementType::BF16   ? 0xFFFFu
                                      : type == ElementType::TF32 ? 0x1FFFu
                                                                  : 0u;
        if (bits & dropped)
            return std::nullopt;
        return type == ElementType::BF16 ? bits >> 16 : bits;
    }
    case ElementType::F64:
        return std::bit_cast<std::uint64_t>(static_cast<double>(v));
    default: {
        const int bits = traits(type).bits;
        const long long lo = traits(type).isSigned || type == ElementType::S32 ? -(1LL << (bits - 1)) : 0;
        const long long hi =
            traits(type).isSigned || type == ElementType::S32 ? (1LL << (bits - 1)) - 1 : (1LL << bits) - 1;
        if (v < lo || v > hi)
            return std::nullopt;
        return static_cast<std::uint64_t>(v) & (bits == 64 ? ~0ULL : ((1ULL << bits) - 1));
    }
    }
}

std::optional<long long> decodeValue(ElementType type, std::uint64_t bits) {
    switch (type) {
    case ElementType::F16:
        if (const auto d = halfValue(static_cast<std::uint16_t>(bits)))
            return integral(*d);
        return std::nullopt;
    case ElementType::BF16:
        return integral(std::bit_cast<float>(static_cast<std::uint32_t>(bits << 16)));
    case ElementType::TF32:
    case ElementType::F32:
        return integral(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
    case ElementType::F64:
        return integral(std::bit_cast<double>(bits));
    default: {
        const int n = traits(type).bits;
        const bool isSigned = traits(type).isSigned || type == ElementType::S32;
        const std::uint64_t mask = n == 64 ? ~0ULL : (1ULL << n) - 1;
        const std::uint64_t b = bits & mask;
        if (isSigned && (b >> (n - 1)) & 1)
            return static_cast<long long>(b) - (1LL << n);
        return static_cast<long long>(b);
    }
    }
}

std::uint64_t elementBitsOf(const FragmentForm& form, std::span<const std::uint32_t> words, int index) {
    const int bits = form.elementBits();
    if (bits == 64)
        return words[static_cast<std::size_t>(2 * index)] |
               (static_cast<std::uint64_t>(words[static_cast<std::size_t>(2 * index + 1)]) << 32);
    const int per = form.elementsPerWord();
    const std::uint32_t word = words[static_cast<std::size_t>(index / per)];
    const int shift = (index % per) * bits;
    return bits == 32 ? word : (word >> shift) & ((1u << bits) - 1);
}

void setElementBits(const FragmentForm& form, std::span<std::uint32_t> words, int index,
                    std::uint64_t value) {
    const int bits = form.elementBits();
    if (bits == 64) {
        words[static_cast<std::size_t>(2 * index)] = static_cast<std::uint32_t>(value);
        words[static_cast<std::size_t>(2 * index + 1)] = static_cast<std::uint32_t>(value >> 32);
        return;
    }
    const int per = form.elementsPerWord();
    std::uint32_t& word = words[static_cast<std::size_t>(index / per)];
    if (bits == 32) {
        word = static_cast<std::uint32_t>(value);
        return;
    }
    const int shift = (index % per) * bits;
    const std::uint32_t mask = ((1u << bits) - 1) << shift;
    word = (word & ~mask) | ((static_cast<std::uint32_t>(value) << shift) & mask);
}

std::vector<std::uint8_t> taggedMatrix(const FragmentForm& form, const TagRun& run) {
    const int rows = form.rows(), cols = form.cols(), n = rows * cols;
    const int ldm = leadingDimension(form);
    const int outer = form.layout == Major::Row ? rows : cols;
    const int bits = form.elementBits();
    const ElementType mem = memoryType(form.type);
    const int p = planeBits(form.type);
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(outer) * static_cast<std::size_t>(ldm) *
                                    static_cast<std::size_t>(bits) / 8);
    auto put = [&](int slot, std::uint64_t value) {
        const std::size_t bit = static_cast<std::size_t>(slot) * static_cast<std::size_t>(bits);
        if (bits < 8) { // packed from the low bits of each byte up
            std::uint8_t& byte = bytes[bit / 8];
            const int shift = static_cast<int>(bit % 8);
            const std::uint8_t mask = static_cast<std::uint8_t>(((1u << bits) - 1) << shift);
            byte = static_cast<std::uint8_t>((byte & ~mask) | ((value << shift) & mask));
            return;
        }
        for (int b = 0; b < bits / 8; ++b)
            bytes[bit / 8 + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(value >> (8 * b));
    };
    auto planeValue = [&](long long tag) { return (tag >> (run.plane * p)) & ((1LL << p) - 1); };
    for (int o = 0; o < outer; ++o)
        for (int i = 0; i < ldm; ++i) {
            const bool inside = i < (form.layout == Major::Row ? cols : rows);
            const int r = form.layout == Major::Row ? o : i;
            const int c = form.layout == Major::Row ? i : o;
            const long long index = static_cast<long long>(r) * cols + c;
            const long long tag = !inside ? n : run.complement ? n - 1 - index : index; // padding: n
            put(o * ldm + i, *encodeValue(mem, planeValue(tag)));
        }
    return bytes;
}

int DiscoveredFragment::uniqueCells() const {
    std::set<std::pair<int, int>> seen;
    for (const Cell& c : cells)
        seen.emplace(c.row, c.col);
    return static_cast<int>(seen.size());
}

int DiscoveredFragment::maxHolders() const {
    std::vector<int> count(static_cast<std::size_t>(form.rows() * form.cols()), 0);
    int most = 0;
    for (const Cell& c : cells)
        most = std::max(most, ++count[static_cast<std::size_t>(c.row * form.cols() + c.col)]);
    return most;
}

bool decodeFragment(const FragmentForm& form, std::span<const std::vector<std::uint32_t>> dumps,
                    DiscoveredFragment& out, std::string& error) {
    const std::vector<TagRun> runs = tagRuns(form);
    const std::string name = form.key();
    if (dumps.size() != runs.size()) {
        error = name + ": " + std::to_string(dumps.size()) + " dumps for " + std::to_string(runs.size()) +
                " runs";
        return false;
    }
    const std::size_t words = static_cast<std::size_t>(form.words);
    for (std::size_t r = 0; r < dumps.size(); ++r)
        if (dumps[r].size() != kLanes * words) {
            error = name + ": run " + std::to_string(r) + " dumped " + std::to_string(dumps[r].size()) +
                    " words, expected 32 lanes x " + std::to_string(words);
            return false;
        }
    const int n = form.rows() * form.cols();
    const int p = planeBits(form.type);
    const int per = form.elementsPerLane();
    DiscoveredFragment result;
    result.form = form;
    result.cells.reserve(static_cast<std::size_t>(kLanes * per));
    std::vector<int> held(static_cast<std::size_t>(n), 0);
    for (int lane = 0; lane < kLanes; ++lane)
        for (int i = 0; i < per; ++i) {
            long long tags[2] = {0, 0};
            for (std::size_t r = 0; r < runs.size(); ++r) {
                const std::span<const std::uint32_t> laneWords(dumps[r].data() + lane * words, words);
                const std::uint64_t bits = elementBitsOf(form, laneWords, i);
                const std::optional<long long> v = decodeValue(memoryType(form.type), bits);
                if (!v || *v < 0 || *v >= (1LL << p)) {
                    std::ostringstream msg;
                    msg << name << ": lane " << lane << " element x[" << i << "] of run " << r << " holds 0x"
                        << std::hex << bits << std::dec << ", which is no tag (0.." << (1LL << p) - 1
                        << "): a scrambled dump";
                    error = msg.str();
                    return false;
                }
                tags[runs[r].complement ? 1 : 0] |= *v << (runs[r].plane * p);
            }
            if (tags[0] >= n) {
                error = name + ": lane " + std::to_string(lane) + " element x[" + std::to_string(i) +
                        "] holds tag " + std::to_string(tags[0]) + ", outside the " + std::to_string(n) +
                        "-element matrix (the padding: was ldm ignored?)";
                return false;
            }
            if (tags[1] != n - 1 - tags[0]) {
                error = name + ": lane " + std::to_string(lane) + " element x[" + std::to_string(i) +
                        "] holds element " + std::to_string(tags[0]) + " in the index runs but " +
                        std::to_string(n - 1 - tags[1]) + " in the complement runs: inconsistent dumps";
                return false;
            }
            ++held[static_cast<std::size_t>(tags[0])];
            result.cells.push_back(Cell{static_cast<int>(tags[0] / form.cols()),
                                        static_cast<int>(tags[0] % form.cols()), -1, -1});
        }
    for (int idx = 0; idx < n; ++idx)
        if (!held[static_cast<std::size_t>(idx)]) {
            error = name + ": no lane holds element (" + std::to_string(idx / form.cols()) + "," +
                    std::to_string(idx % form.cols()) + "): an incomplete fragment";
            return false;
        }
    out = std::move(result);
    return true;
}

const DiscoveredFragment* DiscoveryReport::fragment(const FragmentForm& form) const {
    for (const DiscoveredFragment& f : fragments)
        if (f.form == form)
            return &f;
    return nullptr;
}

const DiscoveryCheck* DiscoveryReport::check(std::string_view spec) const {
    for (const DiscoveryCheck& c : checks)
        if (c.spec == spec)
            return &c;
    return nullptr;
}

std::string toJson(const DiscoveryReport& report) {
    // Written by hand so that each lane is one line: the file is read and diffed by people.
    auto str = [](const std::string& s) { return ordered_json(s).dump(); };
    std::ostringstream o;
    o << "{\n \"format\": " << str(std::string(kFormat)) << ",\n";
    o << " \"device\": {\"name\": " << str(report.device.name) << ", \"sm\": " << report.device.sm
      << ", \"driver\": " << str(report.device.driver)
      << ", \"cuda_runtime\": " << str(report.device.cudaRuntime) << "},\n";
    o << " \"sass_target\": " << str(report.sassTarget) << ",\n \"date\": " << str(report.date)
      << ",\n \"lanemap_version\": " << str(report.lanemapVersion) << ",\n \"fragments\": [";
    for (std::size_t f = 0; f < report.fragments.size(); ++f) {
        const DiscoveredFragment& d = report.fragments[f];
        o << (f ? "," : "") << "\n  {\"fragment\": " << str(d.form.key())
          << ", \"ptx\": " << str(d.form.ptxLoad()) << ", \"cuda\": " << str(d.form.cudaName())
          << ",\n   \"rows\": " << d.form.rows() << ", \"cols\": " << d.form.cols()
          << ", \"words_per_lane\": " << d.form.words << ", \"num_elements\": " << d.numElements()
          << ", \"unique_cells\": " << d.uniqueCells() << ", \"max_holders\": " << d.maxHolders()
          << ",\n   \"lanes\": [";
        for (int lane = 0; lane < kLanes; ++lane) {
            o << (lane ? "," : "") << "\n    [";
            for (int i = 0; i < d.numElements(); ++i) {
                const Cell c = d.cell(lane, i);
                o << (i ? "," : "") << '[' << c.row << ',' << c.col << ']';
            }
            o << ']';
        }
        o << "]}";
    }
    o << "\n ],\n \"checks\": [";
    for (std::size_t i = 0; i < report.checks.size(); ++i) {
        const DiscoveryCheck& c = report.checks[i];
        o << (i ? "," : "") << "\n  {\"spec\": " << str(c.spec)
          << ", \"store\": " << str(std::string(toString(c.store)))
          << ", \"mma\": " << str(std::string(toString(c.mma))) << ", \"detail\": " << str(c.detail) << "}";
    }
    o << "\n ],\n \"failures\": [";
    for (std::size_t i = 0; i < report.failures.size(); ++i)
        o << (i ? "," : "") << "\n  " << str(report.failures[i]);
    o << "\n ]\n}\n";
    return o.str();
}

namespace {
bool getString(const ordered_json& j, const char* key, std::string& out, std::string& error,
               const std::string& where) {
    if (!j.contains(key) || !j.at(key).is_string()) {
        error = where + ": \"" + key + "\" must be a string";
        return false;
    }
    out = j.at(key).get<std::string>();
    return true;
}
bool getInt(const ordered_json& j, const char* key, int& out, std::string& error, const std::string& where) {
    if (!j.contains(key) || !j.at(key).is_number_integer() || j.at(key).get<long long>() < 0 ||
        j.at(key).get<long long>() > 1'000'000) {
        error = where + ": \"" + key + "\" must be a non-negative integer";
        return false;
    }
    out = j.at(key).get<int>();
    return true;
}
// sm_<number>: a compute capability of two or three digits, no leading zero (sm_75 .. sm_121); `sm_0` and a
// 23-digit number were listed as targets.
bool validTarget(const std::string& t) {
    if (t.size() < 4 || t.rfind("sm_", 0) != 0)
        return false;
    std::size_t i = 3;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
        ++i;
    const std::size_t digits = i - 3;
    return digits >= 2 && digits <= 3 && t[3] != '0' &&
           (i == t.size() || (i + 1 == t.size() && (t[i] == 'a' || t[i] == 'f')));
}
} // namespace

bool parseDiscoveryReport(std::string_view text, DiscoveryReport& report, std::string& error) {
    if (const std::string over = json_limits::check(text); !over.empty()) {
        error = "not a lanemap discovery report: " + over;
        return false;
    }
    ordered_json doc;
    try {
        doc = ordered_json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        error = std::string("not JSON: ") + e.what();
        return false;
    }
    if (!doc.is_object() || !doc.contains("format") || doc["format"] != kFormat) {
        error = "not a lanemap discovery report (needs \"format\": \"" + std::string(kFormat) + "\")";
        return false;
    }
    DiscoveryReport r;
    if (!doc.contains("device") || !doc["device"].is_object()) {
        error = "\"device\" must be an object";
        return false;
    }
    const ordered_json& dev = doc["device"];
    if (!getString(dev, "name", r.device.name, error, "device") ||
        !getInt(dev, "sm", r.device.sm, error, "device") ||
        !getString(dev, "driver", r.device.driver, error, "device") ||
        !getString(dev, "cuda_runtime", r.device.cudaRuntime, error, "device") ||
        !getString(doc, "sass_target", r.sassTarget, error, "report") ||
        !getString(doc, "date", r.date, error, "report") ||
        !getString(doc, "lanemap_version", r.lanemapVersion, error, "report"))
        return false;
    if (!validTarget(r.sassTarget)) {
        error = "\"sass_target\" must be sm_<number>, the number 10 to 999 (e.g. sm_90, sm_90a); got \"" +
                excerpt(r.sassTarget, 32) + "\"";
        return false;
    }
    if (!doc.contains("fragments") || !doc["fragments"].is_array()) {
        error = "\"fragments\" must be an array";
        return false;
    }
    if (doc["fragments"].empty()) { // a report of nothing would still list its target for every variant
        error = "\"fragments\" is empty: a discovery report holds at least one discovered fragment";
        return false;
    }
    for (std::size_t fi = 0; fi < doc["fragments"].size(); ++fi) {
        const ordered_json& fj = doc["fragments"][fi];
        std::string where = "fragments[" + std::to_string(fi) + "]";
        if (!fj.is_object()) {
            error = where + " must be an object";
            return false;
        }
        std::string key, informative;
        if (!getString(fj, "fragment", key, error, where))
            return false;
        for (const char* optional : {"ptx", "cuda"}) // informative, but a string where given
            if (fj.contains(optional) && !getString(fj, optional, informative, error, where))
                return false;
        const std::optional<FragmentForm> form = formOfKey(key);
        if (!form) {
            error = where + ": unknown fragment \"" + excerpt(key, 48) +
                    "\" (a wmma form like m16n16k16.a.row.f16)";
            return false;
        }
        where += " (" + key + ")";
        if (r.fragment(*form)) {
            error = where + ": the fragment is given twice";
            return false;
        }
        int rows = 0, cols = 0, words = 0, numElements = 0, unique = 0, holders = 0;
        if (!getInt(fj, "rows", rows, error, where) || !getInt(fj, "cols", cols, error, where) ||
            !getInt(fj, "words_per_lane", words, error, where) ||
            !getInt(fj, "num_elements", numElements, error, where) ||
            !getInt(fj, "unique_cells", unique, error, where) ||
            !getInt(fj, "max_holders", holders, error, where))
            return false;
        if (rows != form->rows() || cols != form->cols() || words != form->words ||
            numElements != form->elementsPerLane()) {
            error = where + ": rows/cols/words_per_lane/num_elements contradict the ISA's table (" +
                    std::to_string(form->rows()) + " x " + std::to_string(form->cols()) + ", " +
                    std::to_string(form->words) + " words, " + std::to_string(form->elementsPerLane()) +
                    " elements per lane)";
            return false;
        }
        if (!fj.contains("lanes") || !fj["lanes"].is_array() || fj["lanes"].size() != kLanes) {
            error = where + ": \"lanes\" must list 32 lanes";
            return false;
        }
        DiscoveredFragment d;
        d.form = *form;
        for (int lane = 0; lane < kLanes; ++lane) {
            const ordered_json& lj = fj["lanes"][static_cast<std::size_t>(lane)];
            if (!lj.is_array() || lj.size() != static_cast<std::size_t>(numElements)) {
                error = where + ": lane " + std::to_string(lane) + " must list " +
                        std::to_string(numElements) + " [row, col] cells";
                return false;
            }
            for (std::size_t i = 0; i < lj.size(); ++i) {
                const ordered_json& cj = lj[i];
                if (!cj.is_array() || cj.size() != 2 || !cj[0].is_number_integer() ||
                    !cj[1].is_number_integer() || cj[0].get<long long>() < 0 ||
                    cj[0].get<long long>() >= rows || cj[1].get<long long>() < 0 ||
                    cj[1].get<long long>() >= cols) {
                    error = where + ": lane " + std::to_string(lane) + " element x[" + std::to_string(i) +
                            "] must be a [row, col] inside the " + std::to_string(rows) + " x " +
                            std::to_string(cols) + " matrix";
                    return false;
                }
                d.cells.push_back(Cell{cj[0].get<int>(), cj[1].get<int>(), -1, -1});
            }
        }
        if (d.uniqueCells() != rows * cols) {
            error = where + ": the lanes hold " + std::to_string(d.uniqueCells()) + " of the " +
                    std::to_string(rows * cols) + " cells: an inconsistent report (every element is loaded)";
            return false;
        }
        if (unique != d.uniqueCells() || holders != d.maxHolders()) {
            error = where + ": unique_cells " + std::to_string(unique) + " / max_holders " +
                    std::to_string(holders) + " contradict the lanes (" + std::to_string(d.uniqueCells()) +
                    " / " + std::to_string(d.maxHolders()) + ")";
            return false;
        }
        r.fragments.push_back(std::move(d));
    }
    if (doc.contains("checks")) {
        if (!doc["checks"].is_array()) {
            error = "\"checks\" must be an array";
            return false;
        }
        std::set<std::string> seen;
        for (std::size_t i = 0; i < doc["checks"].size(); ++i) {
            const ordered_json& cj = doc["checks"][i];
            const std::string where = "checks[" + std::to_string(i) + "]";
            if (!cj.is_object()) {
                error = where + " must be an object";
                return false;
            }
            DiscoveryCheck c;
            std::string store, mma;
            if (!getString(cj, "spec", c.spec, error, where) ||
                !getString(cj, "store", store, error, where) || !getString(cj, "mma", mma, error, where) ||
                !getString(cj, "detail", c.detail, error, where))
                return false;
            if (c.spec.rfind("wmma.", 0) != 0) {
                error = where + ": \"spec\" must name a wmma variant";
                return false;
            }
            const auto sv = parseVerdict(store), mv = parseVerdict(mma);
            if (!sv || !mv) {
                error = where + ": \"store\" and \"mma\" must be pass, fail or unsupported";
                return false;
            }
            if (!seen.insert(c.spec).second) {
                error = where + ": " + excerpt(c.spec) + " is checked twice";
                return false;
            }
            c.store = *sv;
            c.mma = *mv;
            r.checks.push_back(std::move(c));
        }
    }
    if (doc.contains("failures")) {
        if (!doc["failures"].is_array()) {
            error = "\"failures\" must be an array of strings";
            return false;
        }
        for (const ordered_json& f : doc["failures"]) {
            if (!f.is_string()) {
                error = "\"failures\" must be an array of strings";
                return false;
            }
            r.failures.push_back(f.get<std::string>());
        }
    }
    report = std::move(r);
    return true;
}

bool loadDiscoveryReportFile(const std::string& path, DiscoveryReport& report, std::string& error) {
    std::string text;
    return readReportFile(path, text, error) && parseDiscoveryReport(text, report, error);
}

} // namespace lanemap::wmma
