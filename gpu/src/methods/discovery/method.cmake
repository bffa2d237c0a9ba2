# The discovery method (wmma, docs/discovery.md): the two-stage plan, its interpretation, the simulated wmma
# instructions and the report.
target_sources(lanemap_probe_host PRIVATE ${CMAKE_CURRENT_LIST_DIR}/discovery.cpp)

if(LANEMAP_HAVE_CUDA)
  # wmma exists from sm_70 on, so the kernels follow CMAKE_CUDA_ARCHITECTURES (sm_90a code plus compute_80 PTX,
  # JIT-finalized elsewhere: the SASS target each run records).
  lanemap_method_kernels(lanemap_gpu_wmma_kernels ${CMAKE_CURRENT_LIST_DIR}/kernels.cu)
  # Headers only: lanemap_core's code comes from the program that loads the module (gpu/CMakeLists.txt).
  target_include_directories(lanemap_gpu_wmma_kernels PRIVATE $<TARGET_PROPERTY:lanemap_core,INTERFACE_INCLUDE_DIRECTORIES>)
  target_sources(lanemap_probe_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/discovery_cuda.cpp)
endif()
