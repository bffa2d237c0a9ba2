# The tiled-wgmma method (tiles of wgmma.m64nNk16.f16 atoms, docs/tiles.md#proof): plan, expectation, the
# kernel's rule on the CPU and the interpretation, CUDA-free; the tile is a core instance (lanemap/tile.hpp).
target_sources(lanemap_probe_host PRIVATE ${CMAKE_CURRENT_LIST_DIR}/plan.cpp)

if(LANEMAP_HAVE_CUDA)
  lanemap_method_kernels(lanemap_gpu_tiled_wgmma_kernels ${CMAKE_CURRENT_LIST_DIR}/kernels.cu)
  # wgmma exists on sm_90a alone.
  set_target_properties(lanemap_gpu_tiled_wgmma_kernels PROPERTIES CUDA_ARCHITECTURES 90a-real
                                                                   POSITION_INDEPENDENT_CODE ON)
  target_include_directories(lanemap_gpu_tiled_wgmma_kernels PRIVATE ${PROJECT_SOURCE_DIR}/gpu/src
                                                                     ${PROJECT_SOURCE_DIR}/core/include)
  target_sources(lanemap_probe_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tiled_wgmma_cuda.cpp)
endif()
