// The catalog tree and its filter: family -> shape -> types with min-SM badges; search words or a PTX string.
#include "catalog_model.hpp"

#include "lanemap/catalog.hpp"

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

namespace test_catalog_model {

using namespace lanemap;
using namespace lanemap::gui;

namespace {

QModelIndex child(const QAbstractItemModel& m, const QModelIndex& parent, const QString& text) {
    for (int r = 0; r < m.rowCount(parent); ++r)
        if (m.index(r, 0, parent).data().toString() == text)
            return m.index(r, 0, parent);
    return {};
}

QStringList leafSpecs(const QAbstractItemModel& m, const QModelIndex& parent = {}) {
    QStringList out;
    for (int r = 0; r < m.rowCount(parent); ++r) {
        const QModelIndex c = m.index(r, 0, parent);
        const QString spec = c.data(CatalogModel::SpecRole).toString();
        if (!spec.isEmpty())
            out << spec;
        out << leafSpecs(m, c);
    }
    return out;
}

TEST(CatalogModel, TreeIsFamilyShapeTypesWithMinSm) {
    CatalogModel model(Catalog::instance());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const QModelIndex mma = child(model, {}, QStringLiteral("mma"));
    ASSERT_TRUE(mma.isValid());
    const QModelIndex shape = child(model, mma, QStringLiteral("m16n8k16"));
    ASSERT_TRUE(shape.isValid());
    const QModelIndex f16 = child(model, shape, QStringLiteral("f16"));
    ASSERT_TRUE(f16.isValid());
    EXPECT_EQ(f16.data(CatalogModel::SpecRole).toString(), QStringLiteral("mma.m16n8k16.f16"));
    EXPECT_EQ(f16.data(CatalogModel::MinSmRole).toInt(), 80);
    EXPECT_EQ(f16.data(CatalogModel::PtxRole).toString(),
              QStringLiteral("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"));
    // A shape's badge is its lowest SM: the f64 variant needs sm_90, the e4m3 ones sm_89, the rest sm_80.
    EXPECT_EQ(shape.data(CatalogModel::MinSmRole).toInt(), 80);
    EXPECT_EQ(child(model, shape, QStringLiteral("f64")).data(CatalogModel::MinSmRole).toInt(), 90);
    // Volta quad-pairs come from sm_70.
    EXPECT_EQ(child(model, mma, QStringLiteral("m8n8k4")).data(CatalogModel::MinSmRole).toInt(), 70);
    // Every catalog variant is one leaf.
    EXPECT_EQ(leafSpecs(model).size(), static_cast<qsizetype>(Catalog::instance().size()));
    EXPECT_EQ(model.variantCount(), static_cast<int>(Catalog::instance().size()));
    EXPECT_EQ(model.indexOfSpec(QStringLiteral("mma.m16n8k16.f16")), f16);
}

// Matrix moves have no k: their shape node is "m8n8" (as the spec spells it), never "m8n8k0", and the leaf is
// what follows the shape in the spec.
TEST(CatalogModel, MatrixMoveShapeHasNoK) {
    CatalogModel model(Catalog::instance());
    const QModelIndex ldmatrix = child(model, {}, QStringLiteral("ldmatrix"));
    ASSERT_TRUE(ldmatrix.isValid());
    EXPECT_FALSE(child(model, ldmatrix, QStringLiteral("m8n8k0")).isValid());
    const QModelIndex shape = child(model, ldmatrix, QStringLiteral("m8n8"));
    ASSERT_TRUE(shape.isValid());
    const QModelIndex x4 = child(model, shape, QStringLiteral("x4.b16"));
    ASSERT_TRUE(x4.isValid());
    EXPECT_EQ(x4.data(CatalogModel::SpecRole).toString(), QStringLiteral("ldmatrix.m8n8.x4.b16"));
}

TEST(CatalogFilter, SearchWordsMustAllMatch) {
    CatalogModel model(Catalog::instance());
    CatalogFilterModel filter(Catalog::instance());
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    filter.setFilterText(QStringLiteral("m16n8k16 bf16"));
    EXPECT_EQ(leafSpecs(filter),
              (QStringList{QStringLiteral("mma.m16n8k16.bf16"), QStringLiteral("mma.sp.m16n8k16.bf16"),
                           QStringLiteral("mma.sp::ordered_metadata.m16n8k16.bf16")}));
    filter.setFilterText(QStringLiteral("bf16 mma.m16n8k16"));
    EXPECT_EQ(leafSpecs(filter), QStringList{QStringLiteral("mma.m16n8k16.bf16")});
    EXPECT_TRUE(filter.parseError().isEmpty());
    // A prefix of a spec is a search, not an error.
    filter.setFilterText(QStringLiteral("mma.m16n8k16"));
    EXPECT_GT(filter.matchingVariants(), 5);
    EXPECT_TRUE(filter.parseError().isEmpty());
    filter.setFilterText(QString());
    EXPECT_EQ(filter.matchingVariants(), model.variantCount());
}

TEST(CatalogFilter, AcceptsAFullPtxInstruction) {
    CatalogModel model(Catalog::instance());
    CatalogFilterModel filter(Catalog::instance());
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    filter.setFilterText(QStringLiteral(
        "  mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f0,%f1,%f2,%f3}, {%r0,%r1}, ...;"));
    EXPECT_EQ(filter.parsedSpec(), QStringLiteral("mma.m16n8k16.bf16"));
    EXPECT_EQ(leafSpecs(filter), QStringList{QStringLiteral("mma.m16n8k16.bf16")});
    EXPECT_TRUE(filter.parseError().isEmpty());
}

TEST(CatalogFilter, NamesWhyAnInstructionIsInvalid) {
    CatalogModel model(Catalog::instance());
    CatalogFilterModel filter(Catalog::instance());
    filter.setSourceModel(&model);
    // tf32 exists at m16n8k8 and m16n8k4 but not at dense m16n8k16.
    filter.setFilterText(QStringLiteral("mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32"));
    EXPECT_TRUE(filter.parsedSpec().isEmpty());
    EXPECT_EQ(filter.matchingVariants(), 0);
    EXPECT_TRUE(filter.parseError().contains(QStringLiteral("valid types for mma.m16n8k16")))
        << filter.parseError().toStdString();
}

} // namespace

namespace {

// Issue 14.3: the filter understands every word.
struct Filter {
    CatalogModel model{Catalog::instance()};
    CatalogFilterModel filter{Catalog::instance()};
    Filter() { filter.setSourceModel(&model); }
    QStringList specs(const QString& text) {
        filter.setFilterText(text);
        return leafSpecs(filter);
    }
};

} // namespace

TEST(CatalogFilter, EveryWordCountsIncludingTheFamily) {
    Filter f;
    const QStringList bf16 = f.specs(QStringLiteral("mma m16n8k16 bf16"));
    EXPECT_EQ(bf16, (QStringList{QStringLiteral("mma.m16n8k16.bf16"), QStringLiteral("mma.sp.m16n8k16.bf16"),
                                 QStringLiteral("mma.sp::ordered_metadata.m16n8k16.bf16")}));
    const QStringList wide = f.specs(QStringLiteral("wgmma m64n256k16"));
    ASSERT_FALSE(wide.isEmpty());
    for (const QString& spec : wide) {
        EXPECT_TRUE(spec.startsWith(QStringLiteral("wgmma"))) << spec.toStdString();
        EXPECT_TRUE(spec.contains(QStringLiteral("m64n256k16"))) << spec.toStdString();
    }
}

TEST(CatalogFilter, SmSparseAndAccumulatorWords) {
    Filter f;
    const QStringList sm90 = f.specs(QStringLiteral("sm_90"));
    ASSERT_FALSE(sm90.isEmpty()) << "every row shows its SM: the filter must find it";
    for (const QString& spec : sm90)
        EXPECT_EQ(Catalog::instance().variant(spec.toStdString())->minSm, 90) << spec.toStdString();
    EXPECT_EQ(f.specs(QStringLiteral("sm90")), sm90);
    const QStringList sparse = f.specs(QStringLiteral("sparse m16n8k32"));
    ASSERT_FALSE(sparse.isEmpty());
    for (const QString& spec : sparse)
        EXPECT_TRUE(spec.contains(QStringLiteral(".sp"))) << spec.toStdString();
    const QStringList f16acc = f.specs(QStringLiteral("m16n8k16 f16 acc"));
    ASSERT_FALSE(f16acc.isEmpty());
    for (const QString& spec : f16acc)
        EXPECT_EQ(Catalog::instance().variant(spec.toStdString())->dtype, ElementType::F16)
            << spec.toStdString();
    EXPECT_FALSE(f16acc.contains(QStringLiteral("mma.m16n8k16.f16")))
        << "the default f16 variant accumulates in f32";
    EXPECT_EQ(f.specs(QStringLiteral("fp16 m16n8k16")), f.specs(QStringLiteral("f16 m16n8k16")));
}

TEST(CatalogFilter, ZeroHitsGiveAHintAndTheNearestSpecs) {
    Filter f;
    EXPECT_TRUE(f.specs(QStringLiteral("m16n8k16 bf61")).isEmpty());
    EXPECT_TRUE(f.filter.hint().contains(QStringLiteral("bf61 → bf16"))) << f.filter.hint().toStdString();
    ASSERT_FALSE(f.filter.nearestSpecs().isEmpty());
    EXPECT_TRUE(f.filter.nearestSpecs().front().contains(QStringLiteral("bf16")));
    EXPECT_TRUE(f.filter.nearestSpecs().front().contains(QStringLiteral("m16n8k16")));
    f.specs(QStringLiteral("bf16"));
    EXPECT_TRUE(f.filter.hint().isEmpty()) << "no hint while something matches";
}

} // namespace test_catalog_model
