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

namespace lanemap::gpu {

// clang-format off
using MethodRows = MethodTable<
    //        name             plan                   families
    MethodRow<"one-hot",       OneHotProbe,           Family::Mma, Family::MmaSp>,
    MethodRow<"class-coded",   ClassCodedProbe,       Family::Wgmma, Family::WgmmaSp>,
    MethodRow<"tagged-tile",   tagged::TaggedProbe,   Family::Ldmatrix, Family::Stmatrix, Family::Movmatrix>,
    MethodRow<"discovery",     DiscoveryProbe,        Family::Wmma>,
    MethodRow<"tensor-memory", tc::TensorMemoryProbe, Family::Tcgen05Ld, Family::Tcgen05St,
                                                      Family::Tcgen05Mma>>;
// clang-format on

} // namespace lanemap::gpu
