#pragma once
// The app's edges — the filter box, --spec, the compare box, a saved setting — read text once, here, into a
// Selection (lanemap/selection.hpp); everything after works on selections and the instances they make:
// Back / Forward, Recent, the compare partner and every pane's tools.

#include "lanemap/selection.hpp"

#include <QString>

#include <optional>

namespace lanemap::gui {

// The selection `text` (a spec or a whole PTX instruction) names, with what the text says beyond the
// variant: the form typed, a tcgen05.mma's N, a pasted block-scaled string's vector size (IDs 0). An empty
// selection with *error set when the text names none.
Selection parseSelection(const QString& text, QString* error = nullptr);

// The spec a user reads for an instance: the catalog's, or, where a Tensor Memory placement stands for every
// valid N, the spec with the N it was built at ("tcgen05.mma.cta_group::1.kind::f16.m128n64").
QString specText(const Instruction& instance);

// `selection` as the window opens it: the shared-memory choice of the view shown (`shown`) where the variant
// takes it (else K-major with the same swizzle), and D in Tensor Memory composed from the start with the load
// an epilogue issues (lanemap::defaultAccess).
Selection withViewDefaults(Selection selection, const Params& shown);

// Whether opening `typed` would show what `shown` shows: the same variant and the same of what text can name
// (form, N, a vector size typed). The view then stays as the user set it.
bool namesSameView(const Selection& typed, const Selection& shown);

// The window's tile picker (docs/tiles.md): the atom layout and permutation as typed, read by the parser the
// CLI's --atom-layout and --permutation use (tile::parseTileLayout). Both empty: no tile (the atom), `error`
// empty; a permutation alone tiles one warp, CuTe's (1,1,1). A bad value: nullopt with `error` naming what
// is wrong and what is valid, in the CLI's words.
std::optional<tile::TileLayout> readTile(const QString& atomLayout, const QString& permutation,
                                         QString* error);

// Why `selection` cannot be tiled (its family's words, as the CLI says them); "" when a tile applies.
QString whyNoTile(const Selection& selection);

} // namespace lanemap::gui
