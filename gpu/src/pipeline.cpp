// The probe driver (pipeline.hpp): the methods, their registry by family, and the one loop that runs them.
#include "lanemap/gpu/pipeline.hpp"

#include "methods.hpp"
#include "probe_ldmatrix.hpp"

#include "lanemap/catalog.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <mutex>
#include <optional>
#include <thread>

namespace lanemap::gpu {

namespace {

class OneHotMethod final : public ProbeMethod {
  public:
    std::string_view name() const override { return "one-hot"; }
    std::vector<ProbeForm> forms(const Instruction& in) const override { return formsOf(in); }
    std::unique_ptr<PlannedProbe> plan(const Instruction& in) const override {
        return std::make_unique<OneHotProbe>(planProbe(in));
    }
};

class ClassCodedMethod final : public ProbeMethod {
  public:
    std::string_view name() const override { return "class-coded"; }
    std::vector<ProbeForm> forms(const Instruction& in) const override { return wg::formsOf(in); }
    std::unique_ptr<PlannedProbe> plan(const Instruction& in) const override {
        return std::make_unique<ClassCodedProbe>(wg::planProbe(in));
    }
};

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string isoNow() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace

const ProbeMethod& oneHotMethod() {
    static const OneHotMethod method;
    return method;
}

const ProbeMethod& classCodedMethod() {
    static const ClassCodedMethod method;
    return method;
}

const ProbeMethod* methodFor(Family family) {
    struct Row {
        Family family;
        const ProbeMethod& method;
    };
    static const Row registry[] = {
        {Family::Mma, oneHotMethod()},       {Family::MmaSp, oneHotMethod()},
        {Family::Wgmma, classCodedMethod()}, {Family::WgmmaSp, classCodedMethod()},
        {Family::Ldmatrix, taggedMethod()},  {Family::Stmatrix, taggedMethod()},
        {Family::Movmatrix, taggedMethod()},
    };
    for (const Row& row : registry)
        if (row.family == family)
            return &row.method;
    return nullptr;
}

DeviceInfo SimulatedDevice::info() const {
    DeviceInfo d;
    d.name = "CPU simulator (lanemap's own layouts)";
    return d;
}

DeviceRun SimulatedDevice::run(const Variant&, const ProbeMethod&, const PlannedProbe& plan,
                               std::vector<std::uint32_t>& raw) {
    const Clock::time_point start = Clock::now();
    raw = plan.simulate();
    DeviceRun out;
    out.seconds = since(start);
    return out;
}

ProbeResult unsupportedResult(const Variant& v, std::string reason) {
    ProbeResult r;
    r.spec = v.spec;
    r.verdict = Verdict::Unsupported;
    r.reason = std::move(reason);
    return r;
}

ProbeResult probeOn(Device& device, const Variant& v) {
    const ProbeMethod* method = methodFor(v.family);
    if (!method)
        return unsupportedResult(v, "no probe method for the " + std::string(toString(v.family)) + " family");
    if (std::string why = device.unsupported(v, *method); !why.empty())
        return unsupportedResult(v, std::move(why));

    Clock::time_point start = Clock::now();
    const std::unique_ptr<PlannedProbe> plan = method->plan(Catalog::instance().instruction(v));
    double seconds = since(start);

    std::vector<std::uint32_t> raw(plan->outWords());
    DeviceRun run = device.run(v, *method, *plan, raw);
    seconds += run.seconds;
    switch (run.outcome) {
    case DeviceRun::Outcome::Ran:
        break;
    case DeviceRun::Outcome::Unsupported:
        return unsupportedResult(v, std::move(run.reason));
    case DeviceRun::Outcome::Failed: {
        ProbeResult r = std::move(run.failure);
        r.spec = v.spec;
        r.experiments = plan->experiments();
        r.seconds = seconds;
        return r;
    }
    }
    start = Clock::now();
    Interpretation interpretation = plan->interpret(raw);
    interpretation.result.seconds = seconds + since(start);
    return std::move(interpretation.result);
}

ProbeReport probeMany(Device& device, const std::vector<const Variant*>& variants, const Progress& progress,
                      const std::atomic<bool>* cancel) {
    ProbeReport report;
    report.lanemapVersion = LANEMAP_VERSION;
    report.date = isoNow();
    report.device = device.info();
    // Workers take the next variant until none is left or `cancel` is set; a variant already running
    // finishes.
    std::vector<std::optional<ProbeResult>> results(variants.size());
    std::atomic<std::size_t> next{0};
    std::mutex progressMutex;
    std::size_t done = 0;
    auto work = [&] {
        for (;;) {
            if (cancel && cancel->load())
                return;
            const std::size_t i = next.fetch_add(1);
            if (i >= variants.size())
                return;
            results[i] = probeOn(device, *variants[i]);
            const std::lock_guard<std::mutex> lock(progressMutex);
            ++done;
            if (progress)
                progress(done, variants.size(), variants[i]->spec);
        }
    };
    const std::size_t workers =
        std::clamp<std::size_t>(device.workers(), 1, std::max<std::size_t>(variants.size(), 1));
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < workers; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
    for (std::optional<ProbeResult>& r : results)
        if (r)
            report.results.push_back(std::move(*r));
    return report;
}

} // namespace lanemap::gpu
