#pragma once
// The recorded hardware probe run the family tables cite where the hardware settled what the PTX manual leaves
// open (design.md §5). The report file is the untouched output of `lanemap-cli probe --all --json`.

// A string literal, so tables of `const char*` can splice it into their evidence text.
#define LANEMAP_H100_PROBE                                                                                        \
    "hardware probe on NVIDIA H100 80GB HBM3 (sm_90), driver 580.159.04, CUDA 13.0, 2026-11-22T03:37:05Z "    \
    "(resources/probe/h100-mma.json)"

// The wgmma / wgmma.sp run: every variant passed, with B (and A) placed in every canonical shared-memory layout.
#define LANEMAP_H100_WGMMA_PROBE                                                                                  \
    "hardware probe on NVIDIA H100 80GB HBM3 (sm_90), driver 580.159.04, CUDA 13.0, 2026-11-22T04:30:18Z "    \
    "(resources/probe/h100-wgmma.json, resources/probe/h100-wgmma-sp.json)"

namespace lanemap::family {

inline constexpr const char* kH100Probe = LANEMAP_H100_PROBE;
inline constexpr const char* kH100WgmmaProbe = LANEMAP_H100_WGMMA_PROBE;

} // namespace lanemap::family
