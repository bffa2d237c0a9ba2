// A family is one row: the catalog, the spec grammar and the exporters ask the row, so what one family states
// (a CUTLASS atom name, a type, sparsity) never leaks onto another's variants.
#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_formats.hpp"
#include "lanemap/family.hpp"
#include "lanemap/search.hpp"
#include "lanemap/spec.hpp"

#include "catalog_entry.hpp"

#include <gtest/gtest.h>

#include <set>

namespace test_family_rows {

using namespace lanemap;

using lanemap::test::catalogEntry;

TEST(FamilyRows, EveryVariantBelongsToOneRowWhoseNameStartsItsSpec) {
    std::set<std::string_view> names;
    for (const Family* f : families()) {
        EXPECT_TRUE(names.insert(f->name).second) << "two rows named " << f->name;
        EXPECT_NE(f->registerTable, nullptr) << f->name;
        EXPECT_NE(f->ptx, nullptr) << f->name;
        EXPECT_NE(f->shape, nullptr) << f->name;
        EXPECT_EQ(familyNamed(f->name), f);
    }
    std::set<const Family*> used;
    for (const Variant* v : Catalog::instance().variants()) {
        ASSERT_NE(v->family, nullptr) << v->spec;
        EXPECT_TRUE(v->spec.starts_with(v->family->name)) << v->spec;
        EXPECT_EQ(ptxOf(*v, v->forms.front()), v->ptx) << v->spec;
        used.insert(v->family);
    }
    EXPECT_EQ(used.size(), families().size()) << "a row without variants";
    EXPECT_EQ(familyNamed("tma"), nullptr);
}

TEST(FamilyRows, ACutlassMmaAtomIsNamedOnlyWhereCutlassHasOne) {
    // CUTLASS names MMA atoms of mma and wgmma; a matrix move, a wmma or a tcgen05 access has none (they were
    // given a sparse GMMA atom's name).
    EXPECT_EQ(cutlassAtom(catalogEntry("mma.m16n8k16.f16")), "SM80_16x8x16_F32F16F16F32_TN");
    EXPECT_EQ(cutlassAtom(catalogEntry("wgmma.m64n64k16.f16")), "SM90::GMMA::MMA_64x64x16_F32F16F16_RS");
    for (const char* spec :
         {"ldmatrix.m8n8.x4.b16", "movmatrix.m8n8.trans.b16", "wmma.m16n16k16.row.col.f16.f32",
          "tcgen05.ld.32x32b.x1", "tcgen05.mma.cta_group::1.kind::f16.m128"}) {
        EXPECT_EQ(cutlassAtom(catalogEntry(spec)), "") << spec;
        std::string doc, error;
        ASSERT_TRUE(exportInstruction(catalogEntry(spec), ExportFormat::Cute, {}, doc, error)) << error;
        EXPECT_NE(doc.find("atom: none"), std::string::npos) << spec;
    }
}

TEST(FamilyRows, AMoveOrATensorMemoryAccessClaimsNoTypesOfAnMma) {
    // A JSON document names A, B, C and D types only for an instruction that multiplies (has a K).
    for (const char* spec : {"tcgen05.ld.16x64b.x1", "tcgen05.st.32x32b.x2", "ldmatrix.m8n8.x4.b16"}) {
        std::string doc, error;
        ASSERT_TRUE(exportInstruction(catalogEntry(spec), ExportFormat::Json, {}, doc, error)) << error;
        EXPECT_EQ(doc.find("\"types\""), std::string::npos) << spec;
    }
    std::string doc, error;
    ASSERT_TRUE(exportInstruction(catalogEntry("mma.m16n8k16.f16"), ExportFormat::Json, {}, doc, error))
        << error;
    EXPECT_NE(doc.find("\"types\""), std::string::npos);
}

TEST(FamilyRows, SparseIsAFactOfEverySparseMmaTcgen05Too) {
    EXPECT_TRUE(Catalog::instance().variant("mma.sp.m16n8k16.f16")->sparse);
    EXPECT_TRUE(Catalog::instance().variant("wgmma.sp.m64n8k32.f16")->sparse);
    const Variant* tcSparse = Catalog::instance().variant("tcgen05.mma.sp.cta_group::1.kind::f16.m128");
    ASSERT_NE(tcSparse, nullptr);
    EXPECT_TRUE(tcSparse->sparse);
    EXPECT_NE(searchText(*tcSparse).find(" sparse"), std::string::npos) << "it was searchable as dense";
    EXPECT_FALSE(Catalog::instance().variant("mma.m16n8k16.f16")->sparse);
}

TEST(FamilyRows, EachGrammarIsReadByTheFamilyThatClaimsIt) {
    for (const auto& [text, family] :
         {std::pair{"ldmatrix.sync.aligned.m8n8.x4.shared.b16", "ldmatrix"},
          std::pair{"tcgen05.ld.sync.aligned.16x64b.x2.b32", "tcgen05.ld"},
          std::pair{"wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", "wmma"},
          std::pair{"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "mma"}}) {
        const ParsedSpec parsed = parseSpec(text, Catalog::instance());
        ASSERT_TRUE(parsed) << text << ": " << parsed.error;
        EXPECT_EQ(parsed.variant->family->name, family) << text;
    }
}

} // namespace test_family_rows
