#pragma once
// wmma discovery (docs/discovery.md) as a method of the one probe pipeline (pipeline.hpp): the method that
// finds a layout no document states. Per wmma variant its plan runs in two stages: first wmma.load of
// index-tagged matrices for the variant's fragments (A, B, C row- and column-major), read back from every
// fragment word of every lane and decoded (wmma::decodeFragment); then wmma.store.d of a fragment filled
// from the discovered C/D layout and one wmma.mma on fragments filled from the discovered A, B, C layouts,
// which confirm the layouts agree with the product. probeOn / probeMany run it like every other method;
// discoverOn gathers what they read into a discovery report. CUDA-free.

#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/model.hpp"
#include "lanemap/probe_report.hpp"
#include "lanemap/wmma.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace lanemap::gpu {

// What the discovery method read for one variant (Interpretation::discovery).
struct Discovered {
    std::string sassTarget; // "sm_90": the SASS the kernels ran as
    std::vector<wmma::DiscoveredFragment> fragments;
    std::vector<std::pair<wmma::FragmentForm, std::string>> failures; // forms not discovered, and why
    wmma::DiscoveryCheck check;
};

// The forms a variant's discovery loads, in report order: A, B, C (row-major) and C column-major.
std::vector<wmma::FragmentForm> discoveryForms(const Variant& variant);

// The wmma instructions a discovery stage issues, one warp each: the GPU's kernels, or a simulator.
// Each returns false when there is no kernel for the form; `fragmentWords` is the words per lane of the
// fragment that ran (checked against the ISA's count). A device error is thrown, never returned as data.
class WmmaInstructions {
  public:
    virtual ~WmmaInstructions() = default;
    // The SASS version the kernels run as (90 for sm_90); 0 when unknown.
    virtual int sassVersion() const = 0;
    // wmma.load of `form` from `matrix` (leading dimension `ldm` elements): 32 lanes x form.words words into
    // `words`, lane-major.
    virtual bool load(const wmma::FragmentForm& form, std::span<const std::uint8_t> matrix, int ldm,
                      std::span<std::uint32_t> words, int& fragmentWords) = 0;
    // wmma.store.d of the accumulator fragment `form` holding `words`, into `matrix` (form.layout).
    virtual bool store(const wmma::FragmentForm& form, std::span<const std::uint32_t> words, int ldm,
                       std::span<std::uint8_t> matrix, int& fragmentWords) = 0;
    // wmma.mma (b1: .and.popc) of `variant` on fragments holding a, b, c: D's words.
    virtual bool mma(const Variant& variant, std::span<const std::uint32_t> a,
                     std::span<const std::uint32_t> b, std::span<const std::uint32_t> c,
                     std::span<std::uint32_t> d, int& fragmentWords) = 0;
};

// Instructions whose fragments are the placements of `truth` (a report): what a GPU with those layouts
// does. `scramble` corrupts one word of every load, to test rejection.
class SimulatedWmma : public WmmaInstructions {
  public:
    explicit SimulatedWmma(wmma::DiscoveryReport truth) : m_truth(std::move(truth)) {}
    const wmma::DiscoveryReport& truth() const { return m_truth; }
    int sassVersion() const override;
    bool load(const wmma::FragmentForm& form, std::span<const std::uint8_t> matrix, int ldm,
              std::span<std::uint32_t> words, int& fragmentWords) override;
    bool store(const wmma::FragmentForm& form, std::span<const std::uint32_t> words, int ldm,
               std::span<std::uint8_t> matrix, int& fragmentWords) override;
    bool mma(const Variant& variant, std::span<const std::uint32_t> a, std::span<const std::uint32_t> b,
             std::span<const std::uint32_t> c, std::span<std::uint32_t> d, int& fragmentWords) override;
    bool scramble = false;

  private:
    wmma::DiscoveryReport m_truth;
};

// The simulated device for discovery with another truth than the recorded report (SimulatedDevice uses
// that one): discovery plans run on `instructions`, other plans as SimulatedDevice runs them.
class SimulatedWmmaDevice : public SimulatedDevice {
  public:
    explicit SimulatedWmmaDevice(WmmaInstructions& instructions, DeviceInfo info = {})
        : m_instructions(instructions), m_info(std::move(info)) {}
    DeviceInfo info() const override { return m_info; }
    DeviceRun run(const Variant& variant, const ProbeMethod& method, const PlannedProbe& plan,
                  std::vector<std::uint32_t>& raw) override;

  private:
    WmmaInstructions& m_instructions;
    DeviceInfo m_info;
};

// Runs discovery of `variants` (wmma) on `device` through the pipeline (probeMany's loop: unsupported
// handling, workers, progress, cancel) and gathers the report, untouched: the device, target and date; the
// fragments of `forms` in that order (a form no variant loaded is a failure); one check per variant.
wmma::DiscoveryReport discoverOn(Device& device, const std::vector<wmma::FragmentForm>& forms,
                                 const std::vector<const Variant*>& variants, const Progress& progress = {},
                                 const std::atomic<bool>* cancel = nullptr);

// The lines `lanemap-cli discover` prints for a report: discovered / failed per fragment, checked per
// variant.
std::vector<std::string> discoveryLines(const wmma::DiscoveryReport& report,
                                        const std::vector<wmma::FragmentForm>& forms);

// Element values of a matrix as a memory image of form.layout (used by store and the simulator).
long long matrixValue(const wmma::FragmentForm& form, std::span<const std::uint8_t> matrix, int ldm, int row,
                      int col);

} // namespace lanemap::gpu
