// The discovery method's kernel binding (discovery.hpp): its wmma instructions as one-warp launches of the
// discovery kernels, every CUDA call checked (a failure is thrown and ends the variant, as for every method).

#include "cuda_check.hpp"
#include "device_cuda.hpp"
#include "discovery.hpp"
#include "kernels.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

namespace lanemap::gpu {

namespace {
using cuda::check;

// A device buffer freed on scope exit.
struct Buffer {
    void* ptr = nullptr;
    explicit Buffer(std::size_t bytes) { check(cudaMalloc(&ptr, bytes ? bytes : 4), "cudaMalloc"); }
    ~Buffer() { cudaFree(ptr); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    template <class T> T* as() const { return static_cast<T*>(ptr); }
};

void finish() {
    check(cudaGetLastError(), "kernel launch");
    check(cudaDeviceSynchronize(), "kernel");
}

class CudaWmma final : public WmmaInstructions {
  public:
    explicit CudaWmma(int sass) : m_sass(sass) {}
    int sassVersion() const override { return m_sass; }

    bool load(const wmma::FragmentForm& form, std::span<const std::uint8_t> matrix, int ldm,
              std::span<std::uint32_t> words, int& fragmentWords) override {
        constexpr std::size_t kOutBytes = 32u * 64u * 4u; // the widest CUDA fragment, every lane
        Buffer in(matrix.size()), out(kOutBytes);
        check(cudaMemcpy(in.ptr, matrix.data(), matrix.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
        check(cudaMemset(out.ptr, 0xFF, kOutBytes), "cudaMemset");
        if (wmmak::load(form, in.ptr, static_cast<unsigned>(ldm), out.as<std::uint32_t>(), &fragmentWords) ==
            wmmak::Launch::NoKernel)
            return false;
        finish();
        if (fragmentWords == form.words)
            check(cudaMemcpy(words.data(), out.ptr, words.size() * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
        return true;
    }

    bool store(const wmma::FragmentForm& form, std::span<const std::uint32_t> words, int ldm,
               std::span<std::uint8_t> matrix, int& fragmentWords) override {
        Buffer in(words.size() * 4), out(matrix.size());
        check(cudaMemcpy(in.ptr, words.data(), words.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
        check(cudaMemset(out.ptr, 0xFF, matrix.size()), "cudaMemset");
        if (wmmak::store(form, in.as<std::uint32_t>(), out.ptr, static_cast<unsigned>(ldm), &fragmentWords) ==
            wmmak::Launch::NoKernel)
            return false;
        finish();
        if (fragmentWords != form.words)
            return true; // the matrix would be read wrongly: the status word says why
        check(cudaMemcpy(matrix.data(), out.ptr, matrix.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
        return true;
    }

    bool mma(const Variant& v, std::span<const std::uint32_t> a, std::span<const std::uint32_t> b,
             std::span<const std::uint32_t> c, std::span<std::uint32_t> d, int& fragmentWords) override {
        Buffer da(a.size() * 4), db(b.size() * 4), dc(c.size() * 4), dd(c.size() * 4);
        check(cudaMemcpy(da.ptr, a.data(), a.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
        check(cudaMemcpy(db.ptr, b.data(), b.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
        check(cudaMemcpy(dc.ptr, c.data(), c.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
        if (wmmak::mma(v, da.as<std::uint32_t>(), db.as<std::uint32_t>(), dc.as<std::uint32_t>(),
                       dd.as<std::uint32_t>(), &fragmentWords) == wmmak::Launch::NoKernel)
            return false;
        finish();
        if (static_cast<std::size_t>(32 * fragmentWords) == d.size())
            check(cudaMemcpy(d.data(), dd.ptr, d.size() * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
        return true;
    }

  private:
    int m_sass;
};

} // namespace

std::string DiscoveryProbe::cannotRun(const Variant& v, const DeviceInfo& device) {
    if (v.minSm > device.sm)
        return "needs sm_" + std::to_string(v.minSm) + "; this device is sm_" + std::to_string(device.sm);
    return "";
}

PreparedLaunch DiscoveryProbe::prepareLaunch(const Variant&, const DeviceInfo&) const {
    PreparedLaunch p;
    const int sass = wmmak::binaryVersion();
    if (sass <= 0) {
        p.unsupported = "the CUDA runtime cannot say which SASS target the wmma kernels run as";
        return p;
    }
    p.builtFor = "this binary has code for sm_90a and PTX for compute_80";
    p.launch = [this, sass](std::vector<std::uint32_t>& raw) {
        CudaWmma instructions(sass);
        runStage(instructions, raw);
        return 1; // a form without a kernel is said per instruction, in the raw status words
    };
    return p;
}

} // namespace lanemap::gpu
