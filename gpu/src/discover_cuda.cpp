// The GPU as a WmmaDevice: one warp per launch, every CUDA call checked.

#include "cuda_check.hpp"
#include "kernels_wmma.hpp"
#include "lanemap/gpu/discover.hpp"
#include "lanemap/gpu/probe.hpp"

#include <cuda_runtime_api.h>

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

std::string wordsMismatch(int words, int expected) {
    return "the CUDA fragment has " + std::to_string(words) + " words per lane, the ISA table " +
           std::to_string(expected);
}

class CudaWmmaDevice final : public WmmaDevice {
  public:
    explicit CudaWmmaDevice(DeviceInfo info, std::string target)
        : m_info(std::move(info)), m_target(std::move(target)) {}
    DeviceInfo info() const override { return m_info; }
    std::string sassTarget() const override { return m_target; }

    std::string load(const wmma::FragmentForm& form, std::span<const std::uint8_t> matrix, int ldm,
                     std::vector<std::uint32_t>& words) override {
        try {
            Buffer in(matrix.size()), out(32u * 64u * 4u);
            check(cudaMemcpy(in.ptr, matrix.data(), matrix.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
            check(cudaMemset(out.ptr, 0xFF, 32u * 64u * 4u), "cudaMemset");
            int w = 0;
            if (wmmak::load(form, in.ptr, static_cast<unsigned>(ldm), out.as<std::uint32_t>(), &w) ==
                wmmak::Launch::NoKernel)
                return "this build has no kernel for " + form.key();
            finish();
            if (w != form.words)
                return wordsMismatch(w, form.words);
            words.resize(static_cast<std::size_t>(32 * w));
            check(cudaMemcpy(words.data(), out.ptr, words.size() * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
            return {};
        } catch (const cuda::CudaFailure& e) {
            return e.what();
        }
    }

    std::string store(const wmma::FragmentForm& form, std::span<const std::uint32_t> words, int ldm,
                      std::vector<std::uint8_t>& matrix) override {
        try {
            const int outer = form.layout == Major::Row ? form.rows() : form.cols();
            const std::size_t bytes = static_cast<std::size_t>(outer * ldm * form.elementBits() / 8);
            Buffer in(words.size() * 4), out(bytes);
            check(cudaMemcpy(in.ptr, words.data(), words.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
            check(cudaMemset(out.ptr, 0xFF, bytes), "cudaMemset");
            int w = 0;
            if (wmmak::store(form, in.as<std::uint32_t>(), out.ptr, static_cast<unsigned>(ldm), &w) ==
                wmmak::Launch::NoKernel)
                return "this build has no store kernel for " + form.key();
            if (w != form.words)
                return wordsMismatch(w, form.words);
            finish();
            matrix.resize(bytes);
            check(cudaMemcpy(matrix.data(), out.ptr, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
            return {};
        } catch (const cuda::CudaFailure& e) {
            return e.what();
        }
    }

    std::string mma(const Variant& v, std::span<const std::uint32_t> a, std::span<const std::uint32_t> b,
                    std::span<const std::uint32_t> c, std::vector<std::uint32_t>& d) override {
        try {
            Buffer da(a.size() * 4), db(b.size() * 4), dc(c.size() * 4), dd(c.size() * 4);
            check(cudaMemcpy(da.ptr, a.data(), a.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
            check(cudaMemcpy(db.ptr, b.data(), b.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
            check(cudaMemcpy(dc.ptr, c.data(), c.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
            int w = 0;
            if (wmmak::mma(v, da.as<std::uint32_t>(), db.as<std::uint32_t>(), dc.as<std::uint32_t>(),
                           dd.as<std::uint32_t>(), &w) == wmmak::Launch::NoKernel)
                return "this build has no wmma.mma kernel for " + v.spec;
            finish();
            if (static_cast<std::size_t>(32 * w) != c.size())
                return wordsMismatch(w, static_cast<int>(c.size() / 32));
            d.resize(c.size());
            check(cudaMemcpy(d.data(), dd.ptr, d.size() * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
            return {};
        } catch (const cuda::CudaFailure& e) {
            return e.what();
        }
    }

  private:
    DeviceInfo m_info;
    std::string m_target;
};
} // namespace

std::unique_ptr<WmmaDevice> openWmmaDevice(std::string& why) {
    const Availability a = discover();
    if (!a.available) {
        why = a.reason;
        return nullptr;
    }
    const int sass = wmmak::binaryVersion();
    if (sass <= 0) {
        why = "the CUDA runtime cannot say which SASS target the wmma kernels run as";
        return nullptr;
    }
    return std::make_unique<CudaWmmaDevice>(a.device, "sm_" + std::to_string(sass));
}

} // namespace lanemap::gpu
