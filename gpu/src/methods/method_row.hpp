#pragma once
// What a probe method's row is (method_rows.hpp holds the rows). A row is one type, MethodRow<name, Probe,
// families...>: the method's name, its plan type and the families it probes. It is the ProbeMethod the
// pipeline runs, and the GPU device reaches the method's kernel binding through it, so nothing else says
// which method probes what or which kernels run a plan.
//
// The families are named as their rows name them (lanemap/family.hpp); a test checks every catalog variant
// finds exactly one method row. A row's Probe is the method's PlannedProbe. It has
//   - explicit Probe(const Instruction&): the plan of one variant;
//   - static std::vector<ProbeForm> forms(const Instruction&): its forms, in the order its kernels list them;
// and it declares its kernel binding, which the method's CUDA half (methods/<method>/<method>_cuda.cpp)
// defines and the GPU device (probe_cuda.cpp) calls with the plan typed:
//   - static std::string cannotRun(const Variant&, const DeviceInfo&): why this build or GPU cannot run the
//     variant, asked before planning; empty when it can;
//   - PreparedLaunch prepareLaunch(const Variant&, const DeviceInfo&) const: the launch of this plan.
// The host half never calls the binding, so it builds and links without CUDA.
#include "lanemap/gpu/pipeline.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace lanemap::gpu {

struct PreparedLaunch; // device_cuda.hpp: the CUDA half's

// A name as a template argument: the method's and its families' (MethodRow<"one-hot", Probe, "mma", ...>).
template <std::size_t N> struct MethodName {
    constexpr MethodName(const char (&text)[N]) { std::copy_n(text, N, m_text); }
    constexpr std::string_view view() const { return {m_text, N - 1}; }
    char m_text[N]; // public, as a template argument's members must be
};

template <MethodName Name, typename PlanType, MethodName... Families>
class MethodRow final : public ProbeMethod {
  public:
    using Probe = PlanType;
    std::string_view name() const override { return Name.view(); }
    bool probes(const Variant& variant) const override {
        return variant.family && ((variant.family->name == Families.view()) || ...);
    }
    std::vector<ProbeForm> forms(const Instruction& instruction) const override {
        return Probe::forms(instruction);
    }
    std::unique_ptr<PlannedProbe> plan(const Instruction& instruction) const override {
        return std::make_unique<Probe>(instruction);
    }
};

// The rows, in order. Row i's method is probeMethods()[i]: the host half owns the method objects
// (pipeline.cpp), so the probe module, which binds to the program's symbols, compares with the same
// addresses.
template <typename... Row> class MethodTable {
  public:
    static constexpr std::size_t size = sizeof...(Row);

    // One method object per row (what probeMethods() holds).
    static std::array<const ProbeMethod*, size> methods() {
        static const std::tuple<Row...> rows;
        return {&std::get<Row>(rows)...};
    }

    // Calls f.template operator()<Row>() for the row whose method is `method`; false when no row's is.
    template <typename F> static bool withRow(const ProbeMethod& method, F&& f) {
        return withRowAt(method, f, std::index_sequence_for<Row...>{});
    }

    // Calls f(plan as the row's Probe) for the row whose method is `method`, the method that planned `plan`;
    // false when no row's is.
    template <typename F> static bool withPlan(const ProbeMethod& method, const PlannedProbe& plan, F&& f) {
        return withRow(method, [&]<typename R>() {
            // A row's method makes only its row's Probe (MethodRow::plan).
            f(static_cast<const typename R::Probe&>(plan));
        });
    }

    // `plan` as a Probe when `method`, the method that planned it, is the row with that Probe; else nullptr.
    template <typename Probe>
    static const Probe* planOf(const ProbeMethod& method, const PlannedProbe& plan) {
        const Probe* typed = nullptr;
        withRow(method, [&]<typename R>() {
            if constexpr (std::is_same_v<typename R::Probe, Probe>)
                typed = static_cast<const Probe*>(&plan);
        });
        return typed;
    }

  private:
    template <typename F, std::size_t... I>
    static bool withRowAt(const ProbeMethod& method, F& f, std::index_sequence<I...>) {
        const std::span<const ProbeMethod* const> all = probeMethods();
        return ((all[I] == &method ? (f.template operator()<Row>(), true) : false) || ...);
    }
};

// The one form a method runs when its kernel takes the instruction as it is (tagged-tile, tensor-memory).
inline std::vector<ProbeForm> firstFormOf(const Instruction& instruction) {
    ProbeForm f;
    f.instruction = instruction.forms.front();
    f.ptx = instruction.ptx;
    return {f};
}

} // namespace lanemap::gpu
