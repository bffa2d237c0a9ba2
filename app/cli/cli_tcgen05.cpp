// The tcgen05 flags of lanemap-cli show / export (cli_tcgen05.hpp; docs/reference/tcgen05.md).

#include "cli_tcgen05.hpp"

#include "lanemap/excerpt.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/tmem.hpp"

namespace lanemap::cli {

std::string refusedByTensorMemory(const std::vector<std::string_view>& given, bool exporting) {
    if (given.empty())
        return {};
    std::string s = "a tcgen05.mma view draws D in Tensor Memory (A with --st); it takes --ld, --st, ";
    s += exporting ? "--scale-vec, --sfa-id, --sfb-id, --palette and --gzip" : "--scale-vec, --sfa-id and --sfb-id";
    s += ", not ";
    for (std::size_t i = 0; i < given.size(); ++i)
        (s += i == 0 ? "" : i + 1 == given.size() ? " or " : ", ") += given[i];
    return s;
}

std::string applyTcgen05Scale(Selection& selection, const Tcgen05Scale& scale) {
    // The vector size a pasted block-scaled PTX string named (parseSpec), IDs 0.
    const std::optional<tcgen05::BlockScale> typed = selection.params.blockScale;
    if (!scale.given())
        return {};
    const tmem::MmaShape* mma = tmem::mmaOf(*selection.variant);
    if (!mma)
        return "--scale-vec, --sfa-id and --sfb-id choose a block-scaled tcgen05.mma's scale factors; '" +
               selection.variant->spec +
               "' is not a tcgen05.mma spec (e.g. tcgen05.mma.cta_group::1.kind::mxf8f6f4.m128n64)";
    const std::optional<tcgen05::BlockScale> def = tcgen05::defaultBlockScale(mma->kind);
    if (!def)
        return "--scale-vec, --sfa-id and --sfb-id apply to the block-scaled kinds (mxf8f6f4, mxf4, mxf4nvf4); "
               "kind::" +
               std::string(tcgen05::toString(mma->kind)) + " is not one of them";
    tcgen05::BlockScale bs = typed.value_or(*def);
    if (!scale.vec.empty()) {
        const std::optional<tcgen05::ScaleVec> vec = tcgen05::parseScaleVec(scale.vec, mma->kind);
        if (!vec) {
            std::string takes;
            for (const tcgen05::ScaleVec v : tcgen05::scaleVecsOf(mma->kind))
                (takes += ' ') += tcgen05::toString(v);
            return "invalid --scale-vec '" + excerpt(scale.vec) +
                   "'; valid: 1X, 2X, 4X, block32, block16 (kind::" + std::string(tcgen05::toString(mma->kind)) +
                   " takes" + takes + ")";
        }
        if (typed && *vec != typed->vec)
            return "the spec names ." + std::string(tcgen05::toString(typed->vec)) + " and --scale-vec '" +
                   excerpt(scale.vec) + "' another; give the vector size once";
        bs.vec = *vec;
    }
    bs.sfaId = scale.sfaId.value_or(0);
    bs.sfbId = scale.sfbId.value_or(0);
    selection.params.blockScale = bs;
    return {};
}

} // namespace lanemap::cli
