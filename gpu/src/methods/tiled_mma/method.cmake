# The tiled-mma method (tiles of mma.m16n8k16 .f16, docs/tiles.md#proof): plan, expectation, the kernel's rule
# on the CPU and the interpretation, CUDA-free; the tile is a core instance (lanemap/tile.hpp).
target_sources(lanemap_probe_host PRIVATE ${CMAKE_CURRENT_LIST_DIR}/plan.cpp)

if(LANEMAP_HAVE_CUDA)
  lanemap_method_kernels(lanemap_gpu_tiled_mma_kernels ${CMAKE_CURRENT_LIST_DIR}/kernels.cu)
  # Host code with std::string (the CUDA errors) goes into the shared probe module.
  set_target_properties(lanemap_gpu_tiled_mma_kernels PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(lanemap_gpu_tiled_mma_kernels PRIVATE ${PROJECT_SOURCE_DIR}/gpu/src
                                                                   ${PROJECT_SOURCE_DIR}/core/include)
  target_sources(lanemap_probe_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tiled_mma_cuda.cpp)
endif()
