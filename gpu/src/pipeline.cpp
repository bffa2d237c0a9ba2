// The probe driver (pipeline.hpp): the methods of the rows, and the one loop that runs them.
#include "lanemap/gpu/pipeline.hpp"

#include "device_cuda.hpp"
#include "methods/method_rows.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/tile_ctas.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <mutex>
#include <optional>
#include <thread>

namespace lanemap::gpu {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// probeTimes(): whole nanoseconds, so that worker threads add without a lock.
struct TimeSums {
    std::atomic<std::int64_t> context{0}, plan{0}, device{0}, waiting{0}, interpret{0}, variants{0};
};
TimeSums& timeSums() {
    static TimeSums sums;
    return sums;
}
void addSeconds(std::atomic<std::int64_t>& sum, double seconds) {
    sum += static_cast<std::int64_t>(seconds * 1e9);
}
double secondsOf(const std::atomic<std::int64_t>& sum) {
    return static_cast<double>(sum.load()) / 1e9;
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

void addContextSeconds(double seconds) {
    addSeconds(timeSums().context, seconds);
}

ProbeTimes probeTimes() {
    const TimeSums& s = timeSums();
    ProbeTimes t;
    t.context = secondsOf(s.context);
    t.plan = secondsOf(s.plan);
    t.device = secondsOf(s.device);
    t.waiting = secondsOf(s.waiting);
    t.interpret = secondsOf(s.interpret);
    t.variants = static_cast<std::size_t>(s.variants.load());
    return t;
}

std::span<const ProbeMethod* const> probeMethods() {
    static const auto methods = MethodRows::methods();
    return methods;
}

const ProbeMethod* probeMethodOf(const Variant& variant) {
    for (const ProbeMethod* method : probeMethods())
        if (method->probes(variant))
            return method;
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

const ProbeMethod* probeMethodNamed(std::string_view name) {
    for (const ProbeMethod* method : probeMethods())
        if (method->name() == name)
            return method;
    return nullptr;
}

namespace {
Interpretation runPlanned(Device& device, const Variant& v, const ProbeMethod& method, PlannedProbe& plan,
                          double planSeconds);
} // namespace

Interpretation interpretOn(Device& device, const Variant& v) {
    Interpretation out;
    const ProbeMethod* method = probeMethodOf(v);
    if (!method) {
        out.result =
            unsupportedResult(v, "no probe method for the " + std::string(v.family->name) + " family");
        return out;
    }
    if (std::string why = device.unsupported(v, *method); !why.empty()) {
        out.result = unsupportedResult(v, std::move(why));
        return out;
    }
    const Clock::time_point start = Clock::now();
    const std::unique_ptr<PlannedProbe> plan = method->plan(Catalog::instance().instruction(v));
    const double planned = since(start);
    addSeconds(timeSums().plan, planned);
    return runPlanned(device, v, *method, *plan, planned);
}

namespace {
// "pad 16 B, Swizzle<3,3,3>": what the result's spec adds for a staging other than the plain one.
std::string stagingText(const TileStaging& s) {
    std::string out;
    if (s.padBytes)
        out = "pad " + std::to_string(s.padBytes) + " B";
    if (s.cute)
        out += (out.empty() ? "" : ", ") + std::string("Swizzle<") + std::to_string(s.cute->b) + "," +
               std::to_string(s.cute->m) + "," + std::to_string(s.cute->s) + ">";
    else if (s.mode != smem::Swizzle::None)
        out += (out.empty() ? "" : ", ") + std::string(smem::toString(s.mode)) + " swizzle";
    return out;
}

// The tile method by where the atom's B lives: held in registers (mma) or read from shared memory through a
// descriptor (the atom's family places a shared-memory operand: wgmma).
const char* tileMethodOf(const Instruction& tile) {
    return tile.family && tile.family->sharedOperand ? "tiled-wgmma" : "tiled-mma";
}
} // namespace

std::string clusterTileRefusal(const Instruction& tile, const DeviceInfo* device) {
    // No parentheses: reports print the reason inside their own ("0 cells (...)").
    std::string why = "a tile of tcgen05.mma atoms runs over a cluster of " +
                      std::to_string(tile.tile ? tile.tile->threads : 0) +
                      " CTAs and needs a Blackwell GPU, sm_100a";
    if (!device)
        return why + "; there is no GPU here";
    why += "; this device is " + (device->sm ? "sm_" + std::to_string(device->sm) +
                                                   (device->name.empty() ? "" : ", " + device->name)
                                             : device->name);
    // The sm_100a family: where tcgen05 runs (the tensor-memory method's rule).
    if (device->sm == 100 || device->sm == 103 || device->sm == 110)
        why += ", but no lanemap probe method runs such a tile yet; probe the tcgen05.mma atom alone";
    return why;
}

Interpretation interpretTileOn(Device& device, const Instruction& tile, TileLoad load,
                               const TileStaging& staging) {
    Interpretation out;
    // A tile over the CTAs of a cluster: no tile method runs it (the tiled-wgmma method would answer with
    // its own wgmma words).
    if (tile::overCtas(tile)) {
        const DeviceInfo info = device.info();
        out.result = unsupportedResult(
            tile, clusterTileRefusal(tile, info.name.empty() && info.sm == 0 ? nullptr : &info));
        out.result.spec = tile::nameOf(tile);
        return out;
    }
    const char* name = tileMethodOf(tile);
    const ProbeMethod* method = probeMethodNamed(name);
    if (!method) {
        out.result = unsupportedResult(tile, std::string("this build has no ") + name + " probe method");
        return out;
    }
    if (load != TileLoad::Direct && method != probeMethodNamed("tiled-mma")) {
        out.result = unsupportedResult(tile, std::string("--copy ") +
                                                 (load == TileLoad::Ldmatrix ? "ldmatrix" : "ld.shared") +
                                                 " loads an mma tile's A and B into registers; " + tile.spec +
                                                 " reads B (and A in the SS form) from shared memory through "
                                                 "descriptors, which the probe runs (give --copy direct)");
        out.result.spec = tile::nameOf(tile);
        return out;
    }
    if (std::string why = device.unsupported(tile, *method); !why.empty()) {
        out.result = unsupportedResult(tile, std::move(why));
        out.result.spec = tile::nameOf(tile);
        return out;
    }
    const Clock::time_point start = Clock::now();
    const std::unique_ptr<PlannedProbe> plan =
        load == TileLoad::Ldmatrix ? std::make_unique<tiledmma::TiledMmaProbe>(tile, tiledmma::Copy::Ldmatrix)
        : load == TileLoad::SharedLoad
            ? std::make_unique<tiledmma::TiledMmaProbe>(
                  tile, tiledmma::Copy::SharedLoad,
                  tiledmma::SharedLoadCopy{0, 0, staging.padBytes, staging.cute, staging.mode})
            : method->plan(tile);
    const double planned = since(start);
    addSeconds(timeSums().plan, planned);
    out = runPlanned(device, tile, *method, *plan, planned);
    out.result.spec = tile::nameOf(tile) + (load == TileLoad::Ldmatrix     ? " loaded by ldmatrix"
                                            : load == TileLoad::SharedLoad ? " loaded by ld.shared"
                                                                           : "");
    if (load == TileLoad::SharedLoad &&
        (staging.padBytes || staging.cute || staging.mode != smem::Swizzle::None))
        out.result.spec += " (" + stagingText(staging) + ")";
    return out;
}

ProbeReport probeTile(const Instruction& tile, TileLoad load, const TileStaging& staging) {
    ProbeReport report;
    report.lanemapVersion = LANEMAP_VERSION;
    report.date = isoNow();
    Device& device = localDevice();
    report.device = device.info();
    report.results.push_back(std::move(interpretTileOn(device, tile, load, staging).result));
    return report;
}

namespace {

// The driver's loop; `planSeconds` (planning, already added to the sums) counts in the result's seconds.
Interpretation runPlanned(Device& device, const Variant& v, const ProbeMethod& methodRef,
                          PlannedProbe& planRef, double planSeconds) {
    Interpretation out;
    const ProbeMethod* method = &methodRef;
    PlannedProbe* plan = &planRef;
    TimeSums& sums = timeSums();
    ++sums.variants;
    Clock::time_point start = Clock::now();
    double seconds = planSeconds;

    // Every stage the plan asks for, its output appended to what the earlier ones read.
    std::vector<std::uint32_t> read;
    for (;;) {
        std::vector<std::uint32_t> raw(plan->outWords());
        start = Clock::now();
        DeviceRun run = device.run(v, *method, *plan, raw);
        addSeconds(sums.device, run.seconds);
        addSeconds(sums.waiting, std::max(0.0, since(start) - run.seconds));
        seconds += run.seconds;
        switch (run.outcome) {
        case DeviceRun::Outcome::Ran:
            break;
        case DeviceRun::Outcome::Unsupported:
            out.result = unsupportedResult(v, std::move(run.reason));
            return out;
        case DeviceRun::Outcome::Failed:
            out.result = std::move(run.failure);
            out.result.spec = v.spec;
            out.result.experiments = plan->experiments();
            out.result.seconds = seconds;
            return out;
        }
        start = Clock::now();
        if (read.empty())
            read = std::move(raw);
        else
            read.insert(read.end(), raw.begin(), raw.end());
        const bool more = plan->advance(read);
        const double advanced = since(start);
        addSeconds(sums.interpret, advanced);
        seconds += advanced;
        if (!more)
            break;
    }
    start = Clock::now();
    out = plan->interpret(read);
    const double interpreted = since(start);
    addSeconds(sums.interpret, interpreted);
    out.result.seconds = seconds + interpreted;
    return out;
}

} // namespace

Interpretation interpretPlanOn(Device& device, const Variant& v, const ProbeMethod& method,
                               PlannedProbe& plan) {
    return runPlanned(device, v, method, plan, 0.0);
}

ProbeResult probeOn(Device& device, const Variant& v) {
    return std::move(interpretOn(device, v).result);
}

std::vector<Interpretation> interpretMany(Device& device, const std::vector<const Variant*>& variants,
                                          const Progress& progress, const std::atomic<bool>* cancel,
                                          std::vector<bool>* finished) {
    // Workers take the next variant until none is left or `cancel` is set; a variant already running
    // finishes.
    std::vector<Interpretation> results(variants.size());
    std::vector<char> ran(variants.size(), 0);
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
            results[i] = interpretOn(device, *variants[i]);
            ran[i] = 1;
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
    if (finished)
        finished->assign(ran.begin(), ran.end());
    return results;
}

ProbeReport probeMany(Device& device, const std::vector<const Variant*>& variants, const Progress& progress,
                      const std::atomic<bool>* cancel) {
    ProbeReport report;
    report.lanemapVersion = LANEMAP_VERSION;
    report.date = isoNow();
    report.device = device.info();
    std::vector<bool> finished;
    std::vector<Interpretation> results = interpretMany(device, variants, progress, cancel, &finished);
    for (std::size_t i = 0; i < results.size(); ++i)
        if (finished[i])
            report.results.push_back(std::move(results[i].result));
    return report;
}

} // namespace lanemap::gpu
