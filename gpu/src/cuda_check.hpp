#pragma once
// Checked CUDA runtime calls for the GPU device (probe_cuda.cpp) and the methods' kernel bindings
// (methods/*/*_cuda.cpp): every call goes through check(), failures carry the CUDA error name; device buffers
// are kept between variants.

#include "lanemap/probe_report.hpp"
#include "lanemap/vocabulary.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace lanemap::gpu::cuda {

inline std::string errorText(cudaError_t err) {
    return std::string(cudaGetErrorName(err)) + " (" + std::to_string(static_cast<int>(err)) +
           "): " + cudaGetErrorString(err);
}

struct CudaFailure : std::runtime_error {
    CudaFailure(cudaError_t e, const std::string& what)
        : std::runtime_error(what + ": " + errorText(e)), err(e) {}
    cudaError_t err;
};

inline void check(cudaError_t err, const char* what) {
    if (err != cudaSuccess)
        throw CudaFailure(err, what);
}

// cudaDeviceReset() (after a fault) frees every device allocation: the buffers below that outlive one variant
// remember the reset count they were made under and forget (never free) pointers from before it.
inline std::atomic<unsigned>& resetCount() {
    static std::atomic<unsigned> count{0};
    return count;
}

// Device memory kept from one variant to the next and grown on demand. The drivers run one variant at a time
// on the GPU (under their mutex, which also guards these); cudaMalloc and cudaFree (which synchronizes the
// device) for every variant cost more than its launch.
class DeviceArena {
  public:
    DeviceArena() = default;
    ~DeviceArena() { release(); }
    DeviceArena(const DeviceArena&) = delete;
    DeviceArena& operator=(const DeviceArena&) = delete;
    template <typename T> T* reserve(std::size_t count, const char* what) {
        return static_cast<T*>(reserveBytes(std::max<std::size_t>(count, 1) * sizeof(T), what));
    }

  private:
    void* reserveBytes(std::size_t bytes, const char* what) {
        if (m_reset != resetCount().load())
            m_ptr = nullptr, m_bytes = 0, m_reset = resetCount().load();
        if (bytes > m_bytes) {
            const std::size_t grown = std::max(bytes, m_bytes + m_bytes / 2);
            release();
            check(cudaMalloc(&m_ptr, grown), what);
            m_bytes = grown;
        }
        return m_ptr;
    }
    void release() {
        if (m_ptr && m_reset == resetCount().load())
            (void)cudaFree(m_ptr);
        m_ptr = nullptr;
        m_bytes = 0;
    }
    void* m_ptr = nullptr;
    std::size_t m_bytes = 0;
    unsigned m_reset = 0;
};

// Copies `host` into `arena` (grown as needed) and returns where it is on the device. `name` goes into the
// error.
template <typename T> T* upload(DeviceArena& arena, const std::vector<T>& host, const std::string& name) {
    T* device = arena.reserve<T>(host.size(), ("cudaMalloc (" + name + ")").c_str());
    check(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
          ("cudaMemcpy (" + name + ")").c_str());
    return device;
}

// The part both drivers share after uploading their inputs: clears D and the kernel's "compiled" flag, runs
// `launch(dOut, dCompiled)` (returning its cudaError_t as int), waits, and copies D back into `raw`. Returns
// the flag. The caller holds the GPU lock that guards the arenas.
template <typename Launch>
int launchAndFetch(std::vector<std::uint32_t>& raw, DeviceArena& out, DeviceArena& flag, Launch&& launch) {
    std::uint32_t* dOut = out.reserve<std::uint32_t>(raw.size(), "cudaMalloc (D registers)");
    int* dCompiled = flag.reserve<int>(1, "cudaMalloc (flag)");
    check(cudaMemset(dOut, 0, raw.size() * sizeof(std::uint32_t)), "cudaMemset (D registers)");
    check(cudaMemset(dCompiled, 0, sizeof(int)), "cudaMemset (flag)");
    check(static_cast<cudaError_t>(launch(dOut, dCompiled)), "kernel launch");
    check(cudaDeviceSynchronize(), "kernel execution");
    check(cudaMemcpy(raw.data(), dOut, raw.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
          "cudaMemcpy (D registers)");
    int compiled = 0;
    check(cudaMemcpy(&compiled, dCompiled, sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy (flag)");
    return compiled;
}

// The result of a variant whose launch failed: `unsupported` when the binary has no code this device can load
// (`builtFor` says what it has), `fail` otherwise. A fault poisons the context, so it is reset for the next
// variant.
inline ProbeResult failedLaunch(const std::string& spec, int experiments, const CudaFailure& failure,
                                const std::string& builtFor, double seconds) {
    ProbeResult r;
    r.spec = spec;
    r.experiments = experiments;
    if (failure.err == cudaErrorNoKernelImageForDevice || failure.err == cudaErrorUnsupportedPtxVersion) {
        r.verdict = Verdict::Unsupported;
        r.reason = std::string(failure.what()) + " (" + builtFor + ")";
    } else {
        r.verdict = Verdict::Fail;
        r.reason = failure.what();
        r.findings.push_back("the instruction did not complete on this device: " +
                             std::string(failure.what()));
    }
    (void)cudaDeviceReset();
    ++resetCount();
    r.seconds = seconds;
    return r;
}

} // namespace lanemap::gpu::cuda
