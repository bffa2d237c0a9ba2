#pragma once
// The discovery method's plan for one wmma variant (discover.hpp: the tagged loads, then the store and
// product checks built from what the loads found). Its row is in method_rows.hpp.
#include "lanemap/gpu/discover.hpp"
#include "methods/method_row.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace lanemap::gpu {

namespace discovery {
class Stages; // discovery.cpp: each stage's wmma instructions and the reading of their output
}

class DiscoveryProbe final : public PlannedProbe {
  public:
    explicit DiscoveryProbe(const Instruction& instruction);
    ~DiscoveryProbe() override;
    // The loads of the first stage, in report order (discoveryForms).
    static std::vector<ProbeForm> forms(const Instruction& instruction);

    const Instruction& instruction() const override;
    int experiments() const override;
    std::size_t outWords() const override;
    std::vector<std::uint32_t> simulate() const override;
    Interpretation interpret(std::span<const std::uint32_t> raw) const override;
    bool advance(std::span<const std::uint32_t> raw) override;

    // Issues the current stage's wmma instructions on `instructions` (the GPU's kernels, under its lock, or a
    // simulator), filling raw (outWords() words).
    void runStage(WmmaInstructions& instructions, std::vector<std::uint32_t>& raw) const;

    // The kernel binding (discovery_cuda.cpp, CUDA builds): method_row.hpp.
    static std::string cannotRun(const Variant& variant, const DeviceInfo& device);
    PreparedLaunch prepareLaunch(const Variant& variant, const DeviceInfo& device) const;

  private:
    std::unique_ptr<discovery::Stages> m_stages;
};

} // namespace lanemap::gpu
