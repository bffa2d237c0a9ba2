#pragma once
// One probe pipeline for every instruction family, CUDA-free:
//
//   method:  a ProbeMethod turns a variant into a plan (its forms, its experiments, their input images) and
//            reads the device's raw output back into a ProbeResult. The one-hot method probes mma and mma.sp
//            (experiments.hpp), the class-coded method wgmma and wgmma.sp (wgmma.hpp), the tagged-tile
//            method the matrix moves, the tensor-memory method tcgen05, and the discovery method finds
//            wmma's layouts (discover.hpp). Each is one row of gpu/src/methods/method_rows.hpp, which says
//            which families it probes (probeMethodOf). A plan may run in stages when what it feeds the device
//            depends on what an earlier stage read (discovery).
//   device:  a Device runs a plan: the GPU (probe_cuda.cpp, through each row's kernel binding), or in tests
//            the CPU simulator.
//   driver:  probeOn() and probeMany() are the one loop around both: unsupported handling, timing, worker
//            threads, progress and cancel.

#include "lanemap/banks.hpp"
#include "lanemap/gpu/experiments.hpp"
#include "lanemap/gpu/probe.hpp"
#include "lanemap/model.hpp"
#include "lanemap/probe_report.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap::gpu {

// One variant planned by one method: what the device runs and what the method reads back.
class PlannedProbe {
  public:
    virtual ~PlannedProbe() = default;
    virtual const Instruction& instruction() const = 0;
    virtual int experiments() const = 0;
    virtual std::size_t outWords() const = 0; // raw 32-bit words the device writes
    // The CPU stand-in for the device, with the engine's own layouts: what a device that agrees with lanemap
    // writes.
    virtual std::vector<std::uint32_t> simulate() const = 0;
    // Reads raw output (every stage's outWords() words, in order) into verdicts; the result's seconds stay 0
    // (the driver times).
    virtual Interpretation interpret(std::span<const std::uint32_t> raw) const = 0;
    // Called by the driver after each stage with everything read so far: plans the next stage and returns
    // true when the method needs one (outWords() and simulate() then describe it); false when done.
    virtual bool advance(std::span<const std::uint32_t> /*raw*/) { return false; }
};

class ProbeMethod {
  public:
    virtual ~ProbeMethod() = default;
    virtual std::string_view name() const = 0; // "one-hot", "class-coded"
    // Whether this method probes `variant` (its row's families).
    virtual bool probes(const Variant& variant) const = 0;
    // The instruction forms the plan runs, in the order the kernels' instruction switch lists them.
    virtual std::vector<ProbeForm> forms(const Instruction& instruction) const = 0;
    virtual std::unique_ptr<PlannedProbe> plan(const Instruction& instruction) const = 0;
};

// Every probe method, one per row of gpu/src/methods/method_rows.hpp, in its order.
std::span<const ProbeMethod* const> probeMethods();

// The method that probes `variant`; nullptr where none does.
const ProbeMethod* probeMethodOf(const Variant& variant);

// What a device did with one plan.
struct DeviceRun {
    enum class Outcome : std::uint8_t {
        Ran,         // raw holds the output
        Unsupported, // this device or build cannot run the plan: `reason` says why
        Failed,      // the run was attempted and failed: `failure` carries its verdict, reason and findings
    };
    Outcome outcome = Outcome::Ran;
    std::string reason;
    ProbeResult failure;
    double seconds = 0.0; // time this device spent on the plan, waiting for it excluded
};

class Device {
  public:
    virtual ~Device() = default;
    virtual DeviceInfo info() const = 0;
    // Why the device cannot run `variant` with `method`, asked before planning; empty when it can.
    virtual std::string unsupported(const Variant& variant, const ProbeMethod& method) const = 0;
    // Runs the plan, filling raw (plan.outWords() words). Called from several threads at once when
    // workers() > 1.
    virtual DeviceRun run(const Variant& variant, const ProbeMethod& method, const PlannedProbe& plan,
                          std::vector<std::uint32_t>& raw) = 0;
    // How many variants probeMany() handles at once.
    virtual unsigned workers() const { return 1; }
};

// The CPU simulator as a device: every plan's output is what the engine's own layouts give.
class SimulatedDevice : public Device {
  public:
    DeviceInfo info() const override;
    std::string unsupported(const Variant&, const ProbeMethod&) const override { return {}; }
    DeviceRun run(const Variant& variant, const ProbeMethod& method, const PlannedProbe& plan,
                  std::vector<std::uint32_t>& raw) override;
};

// A device that is not there: every variant comes back unsupported with `reason`.
class AbsentDevice final : public Device {
  public:
    explicit AbsentDevice(std::string reason, DeviceInfo info = {})
        : m_reason(std::move(reason)), m_info(std::move(info)) {}
    DeviceInfo info() const override { return m_info; }
    std::string unsupported(const Variant&, const ProbeMethod&) const override { return m_reason; }
    DeviceRun run(const Variant&, const ProbeMethod&, const PlannedProbe&,
                  std::vector<std::uint32_t>&) override {
        return {DeviceRun::Outcome::Unsupported, m_reason, {}, 0.0};
    }

  private:
    std::string m_reason;
    DeviceInfo m_info;
};

// A result that says why the variant was not probed.
ProbeResult unsupportedResult(const Variant& variant, std::string reason);

// The driver: method -> device -> method for one variant; seconds are planning, the device's own time and
// interpretation.
ProbeResult probeOn(Device& device, const Variant& variant);

// The driver's loop for one plan already made: `plan` (of `method`) run on `device`, stage by stage, and read
// back. interpretOn() plans a catalog variant and calls it; a tile and a test's own plan come here directly.
Interpretation interpretPlanOn(Device& device, const Variant& variant, const ProbeMethod& method,
                               PlannedProbe& plan);

// The method a row names ("tiled-mma"); nullptr when none.
const ProbeMethod* probeMethodNamed(std::string_view name);

// A tile of atoms (an instance whose params.tile is set, lanemap/tile.hpp) run by the tiled-mma method on
// `device`: every register of A, B, C/D of every thread of the CTA (docs/tiles.md#proof). The result's spec
// names the tile.
// `load`: how the kernel fills A's and B's registers — element by element from global memory, or by the
// ldmatrix tiled copy from shared memory, or by the plain ld.shared copy (each thread its own fragment, the
// widest ld.shared lanemap says works per operand) (docs/tiles.md#tiled-copy; the result's spec says so).
enum class TileLoad : std::uint8_t { Direct, Ldmatrix, SharedLoad };
// The ld.shared copy's staging of A (row-major) and B (col-major), K-major both: the pad after each line and
// a swizzle (`cute`, or `mode` 32B/64B/128B), read from `banks --smem` text; its other fields are the
// kernel's.
struct TileStaging {
    int padBytes = 0;
    std::optional<banks::CuteSwizzle> cute;
    smem::Swizzle mode = smem::Swizzle::None;
};
Interpretation interpretTileOn(Device& device, const Instruction& tile, TileLoad load = TileLoad::Direct,
                               const TileStaging& staging = {});
// Why a tile of tcgen05.mma atoms (the CTAs of a cluster, lanemap/tile_ctas.hpp) is not probed: it runs only
// on a Blackwell GPU (sm_100a), and no probe method runs such a tile. `device`: the GPU here, named in the
// answer; nullptr when there is none (the caller says why). interpretTileOn answers it for such a tile.
std::string clusterTileRefusal(const Instruction& tile, const DeviceInfo* device);
// The same on this machine's GPU (localDevice()), as a report to record: the device, the date and lanemap's
// version with the one result (unsupported, with the reason, without a GPU).
ProbeReport probeTile(const Instruction& tile, TileLoad load = TileLoad::Direct,
                      const TileStaging& staging = {});

// probeOn with everything the method read: a discovering method's layouts as well as the verdict.
Interpretation interpretOn(Device& device, const Variant& variant);

// The loop of probeMany, keeping each variant's interpretation; `done` (when given) says whether each
// variant finished before a cancel.
std::vector<Interpretation> interpretMany(Device& device, const std::vector<const Variant*>& variants,
                                          const Progress& progress = {},
                                          const std::atomic<bool>* cancel = nullptr,
                                          std::vector<bool>* done = nullptr);

// The device probe() and probeAll() run on: the GPU, or an AbsentDevice saying why there is none.
Device& localDevice();

// Every variant on `device.workers()` threads; results keep the order of `variants` (after a cancel: those
// that finished). Progress comes once per finished variant, one call at a time, possibly from a worker
// thread. The report carries the device, the date and the version.
ProbeReport probeMany(Device& device, const std::vector<const Variant*>& variants,
                      const Progress& progress = {}, const std::atomic<bool>* cancel = nullptr);

} // namespace lanemap::gpu
