#pragma once
// The two probe methods and their plans, as the device code sees them (it launches their kernels).
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/simulate.hpp"
#include "lanemap/gpu/wgmma.hpp"

namespace lanemap::gpu {

// mma / mma.sp: one warp per experiment, one-hot inputs, raw D registers read back (experiments.hpp).
class OneHotProbe final : public PlannedProbe {
  public:
    explicit OneHotProbe(ProbePlan plan) : m_plan(std::move(plan)) {}
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

  private:
    ProbePlan m_plan;
};

// wgmma / wgmma.sp: one warpgroup per experiment, class-coded inputs spelled over a few runs, D's classes
// read back (wgmma.hpp).
class ClassCodedProbe final : public PlannedProbe {
  public:
    explicit ClassCodedProbe(wg::Plan plan) : m_plan(std::move(plan)) {}
    const wg::Plan& plan() const { return m_plan; }
    const Instruction& instruction() const override { return *m_plan.instruction; }
    int experiments() const override { return static_cast<int>(m_plan.experiments.size()); }
    std::size_t outWords() const override { return m_plan.outWords(); }
    std::vector<std::uint32_t> simulate() const override {
        return wg::simulate(m_plan, wg::referenceOf(*m_plan.instruction));
    }
    Interpretation interpret(std::span<const std::uint32_t> raw) const override {
        return wg::interpretProbe(m_plan, raw);
    }

  private:
    wg::Plan m_plan;
};

const ProbeMethod& oneHotMethod();
const ProbeMethod& classCodedMethod();

// Adds to the process-wide probe times (probeTimes(); pipeline.cpp keeps them).
void addContextSeconds(double seconds);

} // namespace lanemap::gpu
