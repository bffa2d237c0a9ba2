# The tma-box method (cp.async.bulk.tensor, docs/tma.md#proof): plan, simulator and interpretation, CUDA-free;
# the family's model is read from its folder (core/src/families/tma).
target_sources(lanemap_probe_host PRIVATE ${CMAKE_CURRENT_LIST_DIR}/plan.cpp)
target_include_directories(lanemap_probe_host PRIVATE ${PROJECT_SOURCE_DIR}/core/src)

if(LANEMAP_HAVE_CUDA)
  # One kernel per rank, with the probe's architectures (sm_90a by default: cp.async.bulk.tensor needs sm_90).
  lanemap_method_kernels(lanemap_gpu_tma_kernels ${CMAKE_CURRENT_LIST_DIR}/run_box.cu)
  # Host code with std::string goes into the shared probe module.
  set_target_properties(lanemap_gpu_tma_kernels PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(lanemap_gpu_tma_kernels PRIVATE ${PROJECT_SOURCE_DIR}/gpu/src ${PROJECT_SOURCE_DIR}/core/src
                                                             ${PROJECT_SOURCE_DIR}/core/include)
  target_sources(lanemap_probe_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tma_box_cuda.cpp)
  target_include_directories(lanemap_probe_cuda PRIVATE ${PROJECT_SOURCE_DIR}/core/src)

  # lanemap-tma-box: one load per process, for the configurations that may trap (docs/tma.md#legality).
  add_executable(lanemap-tma-box ${CMAKE_CURRENT_LIST_DIR}/trap_main.cpp ${CMAKE_CURRENT_LIST_DIR}/run_box.cu
                                 ${CMAKE_CURRENT_LIST_DIR}/plan.cpp)
  target_include_directories(lanemap-tma-box PRIVATE ${PROJECT_SOURCE_DIR}/gpu/src ${PROJECT_SOURCE_DIR}/gpu/include
                                                     ${PROJECT_SOURCE_DIR}/core/src)
  target_link_libraries(lanemap-tma-box PRIVATE lanemap_core CUDA::cudart_static)
endif()
