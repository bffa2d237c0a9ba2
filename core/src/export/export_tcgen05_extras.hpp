#pragma once
// The scale factors and sparse metadata of a tcgen05.mma view in its JSON (docs/reference/tcgen05.md#json):
// the same tables the Tensor Memory panels draw (lanemap/tcgen05_tmem_tables.hpp).

#include "lanemap/tmem.hpp"

#include <nlohmann/json.hpp>

namespace lanemap::tmem {

// Adds "block_scale" and "scale_factors" (block-scaled kinds) and "metadata" (.sp forms) to `j`; a table that
// cannot place a case adds its finding to j["findings"] instead.
void addExtrasJson(const View& view, nlohmann::ordered_json& j);

} // namespace lanemap::tmem
