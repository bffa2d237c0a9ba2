#pragma once
// The class-coded method (wgmma / wgmma.sp, docs/probe.md#wgmma-and-wgmmasp): one warpgroup per experiment,
// class-coded inputs spelled over a few runs, D's classes read back (wgmma.hpp). Its row is in
// method_rows.hpp.
#include "lanemap/gpu/wgmma.hpp"
#include "methods/method_row.hpp"

namespace lanemap::gpu {

class ClassCodedProbe final : public PlannedProbe {
  public:
    explicit ClassCodedProbe(const Instruction& instruction) : m_plan(wg::planProbe(instruction)) {}
    static std::vector<ProbeForm> forms(const Instruction& instruction) { return wg::formsOf(instruction); }
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

    // The kernel binding (class_coded_cuda.cpp, CUDA builds): method_row.hpp.
    static std::string cannotRun(const Variant& variant, const DeviceInfo& device);
    PreparedLaunch prepareLaunch(const Variant& variant, const DeviceInfo& device) const;

  private:
    wg::Plan m_plan;
};

} // namespace lanemap::gpu
