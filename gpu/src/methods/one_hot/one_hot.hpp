#pragma once
// The one-hot method (mma / mma.sp, docs/probe.md): one warp per experiment, one-hot inputs, raw D registers
// read back (experiments.hpp). Its row is in method_rows.hpp.
#include "lanemap/gpu/experiments.hpp"
#include "lanemap/gpu/simulate.hpp"
#include "methods/method_row.hpp"

namespace lanemap::gpu {

class OneHotProbe final : public PlannedProbe {
  public:
    explicit OneHotProbe(const Instruction& instruction) : m_plan(planProbe(instruction)) {}
    static std::vector<ProbeForm> forms(const Instruction& instruction) { return formsOf(instruction); }
    const ProbePlan& plan() const { return m_plan; }
    const Instruction& instruction() const override { return *m_plan.instruction; }
    int experiments() const override { return static_cast<int>(m_plan.experiments.size()); }
    std::size_t outWords() const override { return m_plan.outWords(); }
    std::vector<std::uint32_t> simulate() const override {
        return gpu::simulate(m_plan, referenceOf(*m_plan.instruction));
    }
    Interpretation interpret(std::span<const std::uint32_t> raw) const override {
        return interpretProbe(m_plan, raw);
    }

    // The kernel binding (one_hot_cuda.cpp, CUDA builds): method_row.hpp.
    static std::string cannotRun(const Variant& variant, const DeviceInfo& device);
    PreparedLaunch prepareLaunch(const Variant& variant, const DeviceInfo& device) const;

  private:
    ProbePlan m_plan;
};

} // namespace lanemap::gpu
