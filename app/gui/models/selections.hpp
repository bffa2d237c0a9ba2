#pragma once
// The app's edges — the filter box, --spec, the compare box, a saved setting — read text once, here, into a
// Selection (lanemap/selection.hpp); everything after works on selections and the instances they make:
// Back / Forward, Recent, the compare partner and every pane's tools.

#include "lanemap/selection.hpp"

#include <QString>

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

} // namespace lanemap::gui
