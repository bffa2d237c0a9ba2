#pragma once
// A probe method that runs an instruction's first form through one plan: what the tagged-tile (ldmatrix,
// stmatrix, movmatrix) and tensor-memory (tcgen05) methods are, so each is a name and a plan function.
#include "lanemap/gpu/pipeline.hpp"

#include <memory>
#include <string_view>
#include <vector>

namespace lanemap::gpu {

template <typename Probe, auto planOf> class OneFormMethod final : public ProbeMethod {
  public:
    explicit constexpr OneFormMethod(std::string_view name) : m_name(name) {}
    std::string_view name() const override { return m_name; }
    std::vector<ProbeForm> forms(const Instruction& in) const override {
        ProbeForm f;
        f.instruction = in.forms.front();
        f.ptx = in.ptx;
        return {f};
    }
    std::unique_ptr<PlannedProbe> plan(const Instruction& in) const override {
        return std::make_unique<Probe>(planOf(in));
    }

  private:
    std::string_view m_name;
};

} // namespace lanemap::gpu
