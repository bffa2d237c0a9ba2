#pragma once
// Checked CUDA runtime calls for the probe drivers (probe_cuda.cpp, probe_wgmma_cuda.cpp): every call goes through
// check(), failures carry the CUDA error name, and device buffers free themselves.

#include "lanemap/probe_report.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace lanemap::gpu::cuda {

inline std::string errorText(cudaError_t err) {
    return std::string(cudaGetErrorName(err)) + " (" + std::to_string(static_cast<int>(err)) +
           "): " + cudaGetErrorString(err);
}

struct CudaFailure : std::runtime_error {
    CudaFailure(cudaError_t e, const std::string& what) : std::runtime_error(what + ": " + errorText(e)), err(e) {}
    cudaError_t err;
};

inline void check(cudaError_t err, const char* what) {
    if (err != cudaSuccess) throw CudaFailure(err, what);
}

// A device buffer that frees itself; the free is checked too, but never throws from a destructor.
template <typename T> class DeviceBuffer {
public:
    DeviceBuffer(std::size_t count, const char* what) {
        check(cudaMalloc(reinterpret_cast<void**>(&m_ptr), std::max<std::size_t>(count, 1) * sizeof(T)), what);
    }
    ~DeviceBuffer() {
        if (m_ptr) (void)cudaFree(m_ptr);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    T* get() const { return m_ptr; }

private:
    T* m_ptr = nullptr;
};

// The result of a variant whose launch failed: `unsupported` when the binary has no code this device can load
// (`builtFor` says what it has), `fail` otherwise. A fault poisons the context, so it is reset for the next variant.
inline ProbeResult failedLaunch(const std::string& spec, int experiments, const CudaFailure& failure,
                                const std::string& builtFor, double seconds) {
    ProbeResult r;
    r.spec = spec;
    r.experiments = experiments;
    if (failure.err == cudaErrorNoKernelImageForDevice || failure.err == cudaErrorUnsupportedPtxVersion) {
        r.verdict = "unsupported";
        r.reason = std::string(failure.what()) + " (" + builtFor + ")";
    } else {
        r.verdict = "fail";
        r.reason = failure.what();
        r.findings.push_back("the instruction did not complete on this device: " + std::string(failure.what()));
    }
    (void)cudaDeviceReset();
    r.seconds = seconds;
    return r;
}

} // namespace lanemap::gpu::cuda
