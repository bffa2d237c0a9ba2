# The class-coded method (wgmma / wgmma.sp, docs/probe.md#wgmma-and-wgmmasp): plan, the interpreter's jobs (one
# file each) and the CPU warpgroup.
target_sources(lanemap_probe_host PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/plan.cpp ${CMAKE_CURRENT_LIST_DIR}/cells.cpp ${CMAKE_CURRENT_LIST_DIR}/interpret.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blame.cpp ${CMAKE_CURRENT_LIST_DIR}/metadata.cpp ${CMAKE_CURRENT_LIST_DIR}/findings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/simulate.cpp)

if(LANEMAP_HAVE_CUDA)
  # sm_90a only (wgmma exists nowhere else), one translation unit per type family so they build in parallel.
  # Every valid N by default; OFF builds N = 8, 16, 24, 64, 128, 256 of each type (the others then report
  # "unsupported: this build has no probe kernel").
  option(LANEMAP_WGMMA_ALL_N "Build wgmma probe kernels for every valid N (OFF: a representative subset)" ON)
  lanemap_method_kernels(lanemap_gpu_wgmma_kernels
    ${CMAKE_CURRENT_LIST_DIR}/kernels.cu ${CMAKE_CURRENT_LIST_DIR}/kernels_f16.cu
    ${CMAKE_CURRENT_LIST_DIR}/kernels_bf16_tf32.cu ${CMAKE_CURRENT_LIST_DIR}/kernels_fp8.cu
    ${CMAKE_CURRENT_LIST_DIR}/kernels_int.cu ${CMAKE_CURRENT_LIST_DIR}/kernels_sp_f16.cu
    ${CMAKE_CURRENT_LIST_DIR}/kernels_sp_tf32_int.cu ${CMAKE_CURRENT_LIST_DIR}/kernels_sp_fp8.cu)
  set_target_properties(lanemap_gpu_wgmma_kernels PROPERTIES CUDA_ARCHITECTURES 90a-real)
  # ptxas -O1: each kernel runs one experiment per block, so its speed is immaterial, and a third of these files'
  # compile time was ptxas optimizing the unrolled stores (docs/performance.md#build-and-test-time); every
  # HGMMA stays (checked with cuobjdump -sass and probe --all on an H100).
  target_compile_options(lanemap_gpu_wgmma_kernels PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-O1>)
  if(LANEMAP_WGMMA_ALL_N)
    target_compile_definitions(lanemap_gpu_wgmma_kernels PRIVATE LANEMAP_WGMMA_ALL_N=1)
  endif()
  target_sources(lanemap_probe_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/class_coded_cuda.cpp)
endif()
