#pragma once
// wmma discovery (docs/discovery.md): the method that finds a layout no document states. For every fragment
// form it loads index-tagged matrices through wmma.load, reads every fragment word of every lane and decodes
// them (wmma::decodeFragment); then, per variant, wmma.store.d of a fragment filled from the discovered C/D
// layout and one wmma.mma on fragments filled from the discovered A, B, C layouts confirm the layouts agree
// with the product. CUDA-free: a WmmaDevice runs the instructions (the GPU, or in tests a simulated device).

#include "lanemap/model.hpp"
#include "lanemap/probe_report.hpp"
#include "lanemap/wmma.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace lanemap::gpu {

class WmmaDevice {
  public:
    virtual ~WmmaDevice() = default;
    virtual DeviceInfo info() const = 0;
    // The SASS target the kernels run as ("sm_90"): layouts belong to it.
    virtual std::string sassTarget() const = 0;
    // wmma.load of `form` from `matrix` (leading dimension `ldm` elements): 32 lanes x form.words words,
    // lane-major. Returns why not, or empty.
    virtual std::string load(const wmma::FragmentForm& form, std::span<const std::uint8_t> matrix, int ldm,
                             std::vector<std::uint32_t>& words) = 0;
    // wmma.store.d of the accumulator fragment `form` holding `words`, into a matrix of form.layout.
    virtual std::string store(const wmma::FragmentForm& form, std::span<const std::uint32_t> words, int ldm,
                              std::vector<std::uint8_t>& matrix) = 0;
    // wmma.mma (b1: .and.popc) of `variant` on fragments holding a, b, c: D's words.
    virtual std::string mma(const Variant& variant, std::span<const std::uint32_t> a,
                            std::span<const std::uint32_t> b, std::span<const std::uint32_t> c,
                            std::vector<std::uint32_t>& d) = 0;
};

// A stand-in GPU whose fragments are the placements of `truth` (a report): what a device with those layouts
// does. Tests drive discovery through it; `scramble` corrupts one word of every load to test rejection.
class SimulatedWmmaDevice : public WmmaDevice {
  public:
    explicit SimulatedWmmaDevice(wmma::DiscoveryReport truth) : m_truth(std::move(truth)) {}
    DeviceInfo info() const override { return m_truth.device; }
    std::string sassTarget() const override { return m_truth.sassTarget; }
    std::string load(const wmma::FragmentForm& form, std::span<const std::uint8_t> matrix, int ldm,
                     std::vector<std::uint32_t>& words) override;
    std::string store(const wmma::FragmentForm& form, std::span<const std::uint32_t> words, int ldm,
                      std::vector<std::uint8_t>& matrix) override;
    std::string mma(const Variant& variant, std::span<const std::uint32_t> a,
                    std::span<const std::uint32_t> b, std::span<const std::uint32_t> c,
                    std::vector<std::uint32_t>& d) override;
    bool scramble = false;

  private:
    wmma::DiscoveryReport m_truth;
};

// The GPU, or nullptr with `why` (no CUDA in this build, no device).
std::unique_ptr<WmmaDevice> openWmmaDevice(std::string& why);

using DiscoverProgress = std::function<void(const std::string& line)>;

// Discovers `forms` and checks `variants` (wmma) on `device`: the report, untouched, with the device, target
// and date.
wmma::DiscoveryReport discoverWmma(WmmaDevice& device, const std::vector<wmma::FragmentForm>& forms,
                                   const std::vector<const Variant*>& variants,
                                   const DiscoverProgress& progress = {});

// Element values of a matrix as a memory image of form.layout (used by store and the simulator).
long long matrixValue(const wmma::FragmentForm& form, std::span<const std::uint8_t> matrix, int ldm, int row,
                      int col);

} // namespace lanemap::gpu
