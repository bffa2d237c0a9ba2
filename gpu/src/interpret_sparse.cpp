// mma.sp interpretation: arrives with the sparse engine (branch `sparse`).
#include "interpret_detail.hpp"

#include <stdexcept>

namespace lanemap::gpu::detail {

std::unique_ptr<KModel> sparseKModel(const Instruction& in) {
    throw std::logic_error("SPARSE-TODO " + in.spec);
}
int metadataFieldCount(const Instruction&) { return 0; }
void checkMetadata(const ProbePlan&, const Frame&, std::span<const std::uint32_t>, std::uint16_t, std::size_t,
                   std::size_t, const KModel&, Collector&, ObservedMapping&) {}

} // namespace lanemap::gpu::detail

#include "sparse_detail.hpp"

namespace lanemap::gpu::detail {
int simulatedColumn(const SimReference&, std::size_t, const MetadataLayout&, int, const std::uint32_t*) {
    throw std::logic_error("SPARSE-TODO");
}
} // namespace lanemap::gpu::detail
