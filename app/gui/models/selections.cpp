#include "selections.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram_tmem.hpp"
#include "lanemap/placement.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"

#include <QObject>

namespace lanemap::gui {

namespace {
// The selection with `change` applied, where the variant's family accepts it.
template <class Change> bool tryWith(Selection& selection, Change change) {
    Selection candidate = selection;
    change(candidate.params);
    if (!validate(candidate).empty())
        return false;
    selection = std::move(candidate);
    return true;
}
} // namespace

Selection parseSelection(const QString& text, QString* error) {
    const ParsedSpec parsed = parseSpec(text.trimmed().toStdString(), Catalog::instance());
    if (!parsed) {
        if (error)
            *error = QString::fromStdString(parsed.error);
        return {};
    }
    // The spec's N and a pasted block-scaled string's vector size (IDs 0) travel in its params.
    Selection selection = selectionOf(parsed);
    if (!validate(selection).empty())
        selection.params.blockScale.reset(); // a vector size the variant's family does not take
    return selection;
}

QString specText(const Instruction& instance) {
    for (const Placement& p : instance.placements)
        if (const TensorMemorySource* tensor = p.tensor())
            return QString::fromStdString(tmem::specOf(tensor->mma, true));
    if (const auto& t = instance.tile) // a tile: its extents (the header's notes say what it is made of)
        return QString::fromStdString(instance.spec + " tile " + std::to_string(t->extent[0]) + "x" +
                                      std::to_string(t->extent[1]) + "x" + std::to_string(t->extent[2]));
    return QString::fromStdString(instance.spec);
}

Selection withViewDefaults(Selection selection, const Params& shown) {
    if (!selection)
        return selection;
    if (!selection.params.smem && shown.smem) {
        // MN-major exists for 16-bit types only: another type keeps the swizzle, K-major.
        for (const smem::Choice choice : {*shown.smem, smem::Choice{smem::Major::K, shown.smem->swizzle}})
            if (tryWith(selection, [&](Params& p) {
                    if (choice != smem::Choice{})
                        p.smem = choice; // the default stays unset: one instance for one view
                }))
                break;
    }
    if (!selection.params.access && selection.params.tensorOperand == Operand::D) {
        const Instruction& entry = Catalog::instance().instruction(*selection.variant);
        for (const Placement& p : entry.placements)
            if (const TensorMemorySource* tensor = p.tensor(); tensor && tensor->operand == Operand::D) {
                tmem::MmaShape shape = tensor->mma;
                if (selection.params.n > 0)
                    shape.n = selection.params.n;
                tryWith(selection,
                        [&](Params& params) { params.access = defaultAccess(shape, tmem::Op::Ld); });
            }
    }
    return selection;
}

bool namesSameView(const Selection& typed, const Selection& shown) {
    // A family's own words (a TMA box's tensor map) and a swizzle the text names are what text can name too:
    // another box of cp.async.bulk.tensor.2d is another view.
    return typed.variant == shown.variant && typed.params.form == shown.params.form &&
           typed.params.tile == shown.params.tile && typed.params.n == shown.params.n &&
           typed.params.family == shown.params.family &&
           (!typed.params.smem || typed.params.smem == shown.params.smem) &&
           (!typed.params.blockScale || typed.params.blockScale == shown.params.blockScale);
}

std::optional<tile::TileLayout> readTile(const QString& atomLayout, const QString& permutation,
                                         QString* error) {
    if (error)
        error->clear();
    const QString atoms = atomLayout.trimmed(), perm = permutation.trimmed();
    if (atoms.isEmpty() && perm.isEmpty())
        return std::nullopt;
    std::string why;
    std::optional<tile::TileLayout> t = tile::parseTileLayout(
        atoms.isEmpty() ? std::string("(1,1,1)") : atoms.toStdString(), perm.toStdString(), why);
    if (!t && error)
        *error = QString::fromStdString(why);
    return t;
}

QString whyNoTile(const Selection& selection) {
    if (!selection)
        return QObject::tr("an instruction made elsewhere (not from the catalog) cannot be tiled");
    Selection tiled = selection;
    std::string ignored;
    tiled.params.tile = tile::parseTileLayout("(1,1,1)", "", ignored);
    return QString::fromStdString(validate(tiled));
}

} // namespace lanemap::gui
