# The tagged-tile method (ldmatrix / stmatrix / movmatrix, docs/probe.md "Matrix moves").
target_sources(lanemap_probe_host PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tagged.cpp)

if(LANEMAP_HAVE_CUDA)
  # The .b16 kernels, with the probe's architectures.
  lanemap_method_kernels(lanemap_gpu_move_kernels ${CMAKE_CURRENT_LIST_DIR}/kernels.cu)

  # The sm_100a matrix moves (ldmatrix .m16n16 / .m8n16, stmatrix .m16n8): one translation unit, sm_100a SASS
  # only (a second target would double the compile time for code no other GPU runs). ON when nvcc builds
  # sm_100a (CUDA 12.8 and later); without it those forms report that this build has no sm_100a probe kernel.
  set(LANEMAP_SM100A_DEFAULT OFF)
  if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.8)
    set(LANEMAP_SM100A_DEFAULT ON)
  endif()
  option(LANEMAP_SM100A_PROBES "Build the sm_100a matrix-move probe kernels (needs nvcc 12.8+)" ${LANEMAP_SM100A_DEFAULT})
  if(LANEMAP_SM100A_PROBES)
    lanemap_method_kernels(lanemap_gpu_move_kernels_sm100a ${CMAKE_CURRENT_LIST_DIR}/kernels_sm100.cu)
    set_target_properties(lanemap_gpu_move_kernels_sm100a PROPERTIES CUDA_ARCHITECTURES 100a-real)
    target_compile_definitions(lanemap_probe_cuda PRIVATE LANEMAP_SM100A_PROBES=1)
  endif()
  target_sources(lanemap_probe_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tagged_cuda.cpp)
endif()
