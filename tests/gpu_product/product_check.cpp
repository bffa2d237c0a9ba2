// The GPU product check's runner (product_check.hpp).
#include "product_check.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/sparse.hpp"
#include "product_case.hpp"
#include "product_controls.hpp"

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <sstream>
#include <stdexcept>

namespace lanemap::product {

namespace {

struct CudaError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void check(cudaError_t err, const char* what) {
    if (err != cudaSuccess)
        throw CudaError(std::string(what) + ": " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) +
                        ")");
}

// A device copy of a host vector, freed on scope exit.
template <class T> struct DeviceVector {
    T* ptr = nullptr;
    explicit DeviceVector(const std::vector<T>& host) {
        void* raw = nullptr;
        check(cudaMalloc(&raw, std::max<std::size_t>(1, host.size()) * sizeof(T)), "cudaMalloc");
        ptr = static_cast<T*>(raw);
        if (!host.empty())
            check(cudaMemcpy(ptr, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
                  "cudaMemcpy H2D");
    }
    ~DeviceVector() { cudaFree(ptr); }
    DeviceVector(const DeviceVector&) = delete;
    DeviceVector& operator=(const DeviceVector&) = delete;
};

// The data bits of the small integer v (|v| <= 2048) in `type`. Floating types: the exact encoding (every
// such integer is a normal number of the type for the ranges values() picks).
std::uint64_t encode(ElementType type, int v) {
    const std::uint32_t f = std::bit_cast<std::uint32_t>(static_cast<float>(v));
    const std::uint32_t sign = f >> 31, exponent = (f >> 23) & 0xff, mantissa = f & 0x7fffff;
    // A normal float re-biased into a narrower format with `m` mantissa bits and exponent bias `bias`.
    auto narrow = [&](int e, int m, int bias) -> std::uint64_t {
        if (v == 0)
            return 0;
        return (std::uint64_t{sign} << (e + m)) | (std::uint64_t(int(exponent) - 127 + bias) << m) |
               (mantissa >> (23 - m));
    };
    switch (type) {
    case ElementType::F16:
        return narrow(5, 10, 15);
    case ElementType::BF16:
        return f >> 16;
    case ElementType::TF32:
    case ElementType::F32:
        return f;
    case ElementType::F64:
        return std::bit_cast<std::uint64_t>(static_cast<double>(v));
    case ElementType::E4M3:
        return narrow(4, 3, 7);
    case ElementType::E5M2:
        return narrow(5, 2, 15);
    case ElementType::S8:
    case ElementType::U8:
        return static_cast<std::uint32_t>(v) & 0xffu;
    case ElementType::S4:
    case ElementType::U4:
        return static_cast<std::uint32_t>(v) & 0xfu;
    case ElementType::S32:
        return static_cast<std::uint32_t>(v);
    case ElementType::B1:
        return static_cast<std::uint32_t>(v) & 1u;
    default:
        throw std::invalid_argument("no encoding for " + std::string(toString(type)));
    }
}

double decode(ElementType type, std::uint64_t bits) {
    switch (type) {
    case ElementType::F16: {
        const int e = static_cast<int>((bits >> 10) & 0x1f), m = static_cast<int>(bits & 0x3ff);
        const double magnitude = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
        return (bits >> 15) & 1 ? -magnitude : magnitude;
    }
    case ElementType::F32:
        return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    case ElementType::F64:
        return std::bit_cast<double>(bits);
    case ElementType::S32:
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
    default:
        throw std::invalid_argument("no decoding for " + std::string(toString(type)));
    }
}

// Small integers every type holds exactly; products and sums of them stay exact in every accumulator.
int value(ElementType type, std::uint32_t& seed, bool accumulator) {
    seed = seed * 1664525u + 1013904223u;
    const int r = static_cast<int>(seed >> 16);
    if (type == ElementType::B1)
        return r & 1;
    if (type == ElementType::U8 || type == ElementType::U4)
        return r % 4;
    return accumulator ? r % 41 - 20 : r % 7 - 3;
}

// The logical matrix of one operand: its element type and (products x) rows x cols. wgmma has no register
// B (it sits in shared memory: K x N of the B type) and no C (D accumulates in place: C is D's layout).
struct Matrix {
    ElementType type = ElementType::F16;
    int matrices = 1, rows = 0, cols = 0;
    std::size_t size() const { return static_cast<std::size_t>(matrices * rows * cols); }
};

Matrix matrixOf(const FragmentLayout& op) {
    return {op.elementType(), op.matrices(), op.rows(), op.cols()};
}

Matrix bMatrix(const Instruction& in) {
    const FragmentLayout* b = in.operand(Operand::B);
    return b ? matrixOf(*b) : Matrix{in.btype, 1, in.k, in.n};
}

Matrix cMatrix(const Instruction& in) {
    const FragmentLayout* c = in.operand(Operand::C);
    return matrixOf(c ? *c : *in.operand(Operand::D));
}

struct Inputs {
    std::vector<int> a, b, c; // logical values, stacked by product
    std::vector<int> keptCols;
    std::vector<std::uint32_t> fields;
};

Inputs makeInputs(const Instruction& in, int selector, int kept) {
    const FragmentLayout& a = *in.operand(Operand::A);
    std::uint32_t seed = 12345u + static_cast<std::uint32_t>(in.spec.size()) * 7919u;
    Inputs x;
    auto fill = [&](std::vector<int>& out, const Matrix& m, bool accumulator) {
        out.resize(m.size());
        for (int& v : out)
            v = value(m.type, seed, accumulator);
    };
    fill(x.a, matrixOf(a), false);
    fill(x.b, bMatrix(in), false);
    fill(x.c, cMatrix(in), true);
    if (selector < 0)
        return x;
    const sparse::StorageRule& rule = *sparse::ruleFor(in.metadata->granularity);
    const int chunks = a.cols() / rule.chunkCols;
    // Every pattern the rule allows, in turn over (row, chunk): kept positions, ascending.
    std::vector<std::vector<int>> patterns;
    const int unit = rule.pattern == sparse::Pattern::PairwiseFourOfEight ? 2 : 1;
    const int units = rule.chunkCols / unit, keptUnits = kept / unit;
    for (int mask = 0; mask < (1 << units); ++mask)
        if (std::popcount(static_cast<unsigned>(mask)) == keptUnits) {
            std::vector<int> positions;
            for (int u = 0; u < units; ++u)
                if (mask >> u & 1)
                    for (int k = 0; k < unit; ++k)
                        positions.push_back(u * unit + k);
            patterns.push_back(positions);
        }
    std::vector<int> logical(x.a.size(), 0);
    for (int r = 0; r < a.rows(); ++r)
        for (int ch = 0; ch < chunks; ++ch) {
            const std::vector<int>& positions =
                patterns[static_cast<std::size_t>((r * chunks + ch) * 5 + selector) % patterns.size()];
            const unsigned field = sparse::encodeField(rule.pattern, positions);
            x.fields.push_back(field);
            for (const int offset : sparse::decodeField(rule.pattern, field)) { // storage order
                const int col = ch * rule.chunkCols + offset;
                x.keptCols.push_back(col);
                const std::size_t cell = static_cast<std::size_t>(r * a.cols() + col);
                logical[cell] = x.a[cell];
            }
        }
    x.a = std::move(logical);
    return x;
}

std::vector<std::uint64_t> encodeAll(ElementType type, const std::vector<int>& values) {
    std::vector<std::uint64_t> out;
    out.reserve(values.size());
    for (const int v : values)
        out.push_back(encode(type, v));
    return out;
}

CaseResult runCase(const Case& kase) {
    CaseResult result;
    result.spec = kase.spec;
    result.selector = kase.selector;
    result.control = kase.control;
    result.aShared = kase.aShared;
    const Instruction* in =
        kase.control ? &controlInstruction(kase.spec) : Catalog::instance().instruction(kase.spec);
    if (!in) {
        result.error = "not in the catalog";
        return result;
    }
    const Matrix a = matrixOf(*in->operand(Operand::A));
    const Matrix b = bMatrix(*in);
    const Matrix c = cMatrix(*in);
    const FragmentLayout& d = *in->operand(Operand::D);
    try {
        const Inputs x = makeInputs(*in, kase.selector, kase.kept);
        const DeviceVector<std::uint64_t> da(encodeAll(a.type, x.a)), db(encodeAll(b.type, x.b)),
            dc(encodeAll(c.type, x.c));
        const std::size_t dCells = static_cast<std::size_t>(d.matrices() * d.rows() * d.cols());
        // A pattern no result has, so a cell the kernel never writes fails.
        const std::vector<std::uint64_t> sentinel(dCells, 0x7ff4dead7ff4deadull);
        const DeviceVector<std::uint64_t> dd(sentinel);
        const DeviceVector<int> kept(x.keptCols);
        const DeviceVector<std::uint32_t> fields(x.fields);
        Buffers buffers{da.ptr, db.ptr, dc.ptr, dd.ptr, kept.ptr, fields.ptr};
        kase.launch(buffers);
        check(cudaGetLastError(), "kernel launch");
        check(cudaDeviceSynchronize(), "kernel");
        std::vector<std::uint64_t> got(dCells);
        check(cudaMemcpy(got.data(), dd.ptr, dCells * sizeof(std::uint64_t), cudaMemcpyDeviceToHost),
              "cudaMemcpy D2H");
        const bool b1 = in->forms.front().b1 != B1Op::None;
        const bool andOp = in->forms.front().b1 == B1Op::And;
        for (int m = 0; m < d.matrices(); ++m)
            for (int r = 0; r < d.rows(); ++r)
                for (int col = 0; col < d.cols(); ++col) {
                    long long expected = x.c[static_cast<std::size_t>((m * c.rows + r) * c.cols + col)];
                    for (int k = 0; k < a.cols; ++k) {
                        const int av = x.a[static_cast<std::size_t>((m * a.rows + r) * a.cols + k)];
                        const int bv = x.b[static_cast<std::size_t>((m * b.rows + k) * b.cols + col)];
                        expected += b1 ? (andOp ? (av & bv) : (av ^ bv)) : static_cast<long long>(av) * bv;
                    }
                    const std::uint64_t raw =
                        got[static_cast<std::size_t>((m * d.rows() + r) * d.cols() + col)];
                    const double observed = raw == sentinel[0] ? std::nan("") : decode(d.elementType(), raw);
                    ++result.cells;
                    if (observed != static_cast<double>(expected)) {
                        if (result.mismatches++ == 0) {
                            std::ostringstream s;
                            s << "D" << (d.matrices() > 1 ? "(product " + std::to_string(m) + ")" : "") << "["
                              << r << "][" << col << "]: expected " << expected << ", got ";
                            if (std::isnan(observed))
                                s << "nothing (never written)";
                            else
                                s << observed;
                            result.firstMismatch = s.str();
                        }
                    }
                }
    } catch (const std::exception& e) {
        result.error = e.what();
    }
    return result;
}

std::string nowUtc() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

std::string versionText(int v) {
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string selectorText(int selector) {
    return selector < 0 ? "" : " selector " + std::to_string(selector);
}

bool isWgmma(const std::string& spec) {
    return spec.starts_with("wgmma") || spec == test::kWgmmaControlSpec;
}

} // namespace

const Instruction& controlInstruction(std::string_view spec) {
    static const Instruction mma = test::nonAffineInstruction();
    static const Instruction wgmma = test::wgmmaControlInstruction();
    return spec == wgmma.spec ? wgmma : mma;
}

std::string deviceProblem() {
    int count = 0;
    if (const cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess)
        return std::string("no CUDA device: ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")";
    if (count == 0)
        return "no CUDA device: cudaGetDeviceCount found 0";
    cudaDeviceProp prop{};
    if (const cudaError_t err = cudaGetDeviceProperties(&prop, 0); err != cudaSuccess)
        return std::string("cudaGetDeviceProperties: ") + cudaGetErrorName(err);
    if (prop.major != 9 || prop.minor != 0)
        return std::string("device ") + prop.name + " is sm_" + std::to_string(prop.major * 10 + prop.minor) +
               "; the product kernels are built for sm_90a (Hopper) only";
    return {};
}

Run runAll(const std::vector<Case>& cases) {
    Run run;
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    run.device.name = prop.name;
    run.device.smMajor = prop.major;
    run.device.smMinor = prop.minor;
    check(cudaDriverGetVersion(&run.device.driverVersion), "cudaDriverGetVersion");
    check(cudaRuntimeGetVersion(&run.device.runtimeVersion), "cudaRuntimeGetVersion");
    run.date = nowUtc();
    const auto start = std::chrono::steady_clock::now();
    for (const Case& kase : cases)
        run.results.push_back(runCase(kase));
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return run;
}

std::string toJson(const Run& run) {
    nlohmann::ordered_json j;
    j["check"] = "lanemap gpu product check";
    j["method"] =
        "A, B, C loaded from global memory and D stored with the generated CUDA header's "
        "row/col/reg/bit (and metadata field_lane/field_bit); wgmma: B, and A for the SS form, written "
        "to shared memory at the header's smem_offset/smem_bit and described by its smem_descriptor, "
        "C loaded into D; the header's mma() wrapper runs the instruction; D compared with the host's "
        "exact product";
    j["device"] = {{"name", run.device.name},
                   {"sm", std::to_string(run.device.smMajor) + std::to_string(run.device.smMinor)},
                   {"cuda_driver", versionText(run.device.driverVersion)},
                   {"cuda_runtime", versionText(run.device.runtimeVersion)}};
    j["date"] = run.date;
    j["seconds"] = run.seconds;
    int pass = 0, checked = 0;
    nlohmann::ordered_json cases = nlohmann::ordered_json::array();
    nlohmann::ordered_json controls = nlohmann::ordered_json::array();
    for (const CaseResult& r : run.results) {
        if (!r.control) {
            ++checked;
            pass += r.pass() ? 1 : 0;
        }
        nlohmann::ordered_json c{{"spec", r.spec}};
        if (r.selector >= 0)
            c["selector"] = r.selector;
        if (isWgmma(r.spec))
            c["a_from"] = r.aShared ? "shared memory" : "registers";
        if (r.control)
            c["expect"] =
                std::string("fail (") + (isWgmma(r.spec) ? "A" : "C") + " rows rotated: a wrong layout)";
        c["verdict"] = r.pass() ? "pass" : "fail";
        c["cells"] = r.cells;
        if (r.mismatches)
            c["mismatches"] = r.mismatches, c["first_mismatch"] = r.firstMismatch;
        if (!r.error.empty())
            c["error"] = r.error;
        (r.control ? controls : cases).push_back(std::move(c));
    }
    j["summary"] = {{"cases", checked}, {"pass", pass}, {"fail", checked - pass}};
    j["cases"] = std::move(cases);
    j["controls"] = std::move(controls);
    return j.dump(2) + "\n";
}

std::string toText(const Run& run) {
    std::ostringstream s;
    int pass = 0, checked = 0;
    for (const CaseResult& r : run.results) {
        if (!r.control) {
            ++checked;
            pass += r.pass() ? 1 : 0;
        }
        s << (r.control ? (r.asRequired() ? "control failed as required: " : "CONTROL DID NOT FAIL: ")
                        : (r.pass() ? "pass " : "FAIL "))
          << r.spec << selectorText(r.selector)
          << (isWgmma(r.spec) ? (r.aShared ? ", A from shared memory" : ", A from registers") : "") << ": "
          << r.cells << " cells";
        if (r.mismatches)
            s << ", " << r.mismatches << " differ (first " << r.firstMismatch << ")";
        if (!r.error.empty())
            s << ", " << r.error;
        s << '\n';
    }
    s << pass << " / " << checked << " cases reproduce the host's product on " << run.device.name << " (sm_"
      << run.device.smMajor << run.device.smMinor << ", driver " << versionText(run.device.driverVersion)
      << ", runtime " << versionText(run.device.runtimeVersion) << ") at " << run.date << " in "
      << run.seconds << " s\n";
    return s.str();
}

} // namespace lanemap::product
