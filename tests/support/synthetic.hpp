#pragma once
// Small synthetic instructions for the generic drawing paths whose real tables live on other branches:
// a sparse mma (chunked A + metadata) and a 128-thread wgmma with the 64x256 D of
// docs/reference/ptx-facts.md#wgmma-fragments.

#include "lanemap/catalog.hpp"
#include "lanemap/model.hpp"
#include "lanemap/selection.hpp"

namespace lanemap::test {

// mma.sp m16n8k16 .f16 A (ISA §9.7.14.6.2.1): row g (a0, a1) / g+8 (a2, a3), chunk cols 4t .. 4t+3.
inline Cell sparseA16816(const Lane& l, int i, int) {
    return {i < 2 ? l.groupID : l.groupID + 8, l.threadID_in_group * 4, l.threadID_in_group * 4 + 3};
}

// The dense m16n8k16 .f16 instruction with A replaced by the 2:4 chunked A and the metadata of
// docs/reference/ptx-facts.md (selector F: lane 4g+F; nibble j of bits 15..0 -> row g, cols 4j..4j+3;
// bits 31..16 -> g+8).
inline Instruction sparseM16n8k16() {
    Instruction in = *Catalog::instance().instruction("mma.m16n8k16.f16");
    in.spec = "mma.sp.m16n8k16.f16";
    in.family = familyNamed("mma.sp");
    in.ptx = "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
    in.section = "9.7.14.6.2.1";
    in.anchor = "warp-level-matrix-fragment-sparse-mma-16816-f16bf16";
    in.notes = {"synthetic test instruction"};
    in.errata.clear();
    in.hardware = nullptr;
    in.operands[0] = FragmentLayout::build(Operand::A, ElementType::F16, 16, 32, {16, 16, 1, 2, 32, 2},
                                           sparseA16816, 8, Source::Doc);
    MetadataLayout md;
    md.granularity = "2:4";
    md.indexBits = 2;
    for (int f = 0; f < 4; ++f) {
        MetadataSelector sel;
        sel.value = f;
        for (int g = 0; g < 8; ++g)
            for (int j = 0; j < 4; ++j) {
                sel.fields.push_back({4 * g + f, 4 * j + 3, 4 * j, g, 4 * j, 4 * j + 3, Source::Figure});
                sel.fields.push_back(
                    {4 * g + f, 16 + 4 * j + 3, 16 + 4 * j, g + 8, 4 * j, 4 * j + 3, Source::Figure});
            }
        md.selectors.push_back(std::move(sel));
    }
    in.metadata = std::make_shared<const MetadataLayout>(std::move(md));
    placeOperands(in); // as the catalog places what it builds
    return in;
}

// The wgmma D fragment (docs/reference/ptx-facts.md): D row = 16w + g + 8((v >> 1) & 1), col = 8(v >> 2) + 2t
// + (v & 1).
inline Cell wgmmaD(const Lane& l, int v, int) {
    return {16 * l.warp + l.groupID + 8 * ((v >> 1) & 1), 8 * (v >> 2) + 2 * l.threadID_in_group + (v & 1)};
}
// A per warp = the mma.m16n8k16 .f16 A, row += 16w.
inline Cell wgmmaA(const Lane& l, int i, int) {
    const int g = l.groupID, t = l.threadID_in_group;
    return {16 * l.warp + ((i < 2 || (4 <= i && i < 6)) ? g : g + 8),
            i < 4 ? t * 2 + (i & 1) : t * 2 + (i & 1) + 8};
}

inline Instruction wgmmaM64n256k16() {
    Instruction in;
    in.spec = "wgmma.m64n256k16.f16";
    in.ptx = "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16";
    in.family = familyNamed("wgmma");
    in.scope = Scope::Warpgroup;
    in.threads = 128;
    in.m = 64, in.n = 256, in.k = 16;
    in.atype = in.btype = ElementType::F16;
    in.ctype = in.dtype = ElementType::F32;
    in.forms = {Form{ElementType::F16, ElementType::F16}};
    in.minSm = 90;
    in.section = "9.7.15.5.1.1";
    in.anchor = "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n16";
    in.operands.push_back(FragmentLayout::build(Operand::A, ElementType::F16, 16, 128, {64, 16, 1, 4, 32, 2},
                                                wgmmaA, 256, Source::Inferred));
    in.operands.push_back(FragmentLayout::build(Operand::D, ElementType::F32, 32, 128,
                                                {64, 256, 1, 128, 32, 1}, wgmmaD, 256, Source::Inferred));
    placeOperands(in); // as the catalog places what it builds
    return in;
}

} // namespace lanemap::test
