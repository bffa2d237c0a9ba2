#pragma once
// The probe methods, one row each (method_row.hpp), and the only place that says which families a method
// probes. A new method is one folder, methods/<method>/ (its Probe, kernels, binding and method.cmake), and
// one row here.
#include "methods/method_row.hpp"

#include "methods/class_coded/class_coded.hpp"
#include "methods/discovery/discovery.hpp"
#include "methods/one_hot/one_hot.hpp"
#include "methods/tagged/tagged.hpp"
#include "methods/tensor_memory/tensor_memory.hpp"
#include "methods/tiled_mma/tiled_mma.hpp"
#include "methods/tiled_wgmma/tiled_wgmma.hpp"
#include "methods/tma_box/tma_box.hpp"

namespace lanemap::gpu {

// clang-format off
using MethodRows = MethodTable<
    //        name             plan                   families
    MethodRow<"one-hot",       OneHotProbe,           "mma", "mma.sp">,
    MethodRow<"class-coded",   ClassCodedProbe,       "wgmma", "wgmma.sp">,
    MethodRow<"tagged-tile",   tagged::TaggedProbe,   "ldmatrix", "stmatrix", "movmatrix">,
    MethodRow<"discovery",     DiscoveryProbe,        "wmma">,
    MethodRow<"tensor-memory", tc::TensorMemoryProbe, "tcgen05.ld", "tcgen05.st",
                                                      "tcgen05.mma">,
    MethodRow<"tma-box",       tmabox::TmaBoxProbe,   "cp.async.bulk.tensor">,
    // Tiles of atoms (lanemap/tile.hpp): no family of their own; interpretTileOn() plans a tile instance with
    // the one its atom's operands ask for (B in registers: tiled-mma; B in shared memory: tiled-wgmma).
    MethodRow<"tiled-mma",     tiledmma::TiledMmaProbe>,
    MethodRow<"tiled-wgmma",   tiledwgmma::TiledWgmmaProbe>>;
// clang-format on

} // namespace lanemap::gpu
