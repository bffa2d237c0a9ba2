# The one-hot method (mma / mma.sp, docs/probe.md): plan, interpretation, findings and the CPU tensor core.
target_sources(lanemap_probe_host PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/plan.cpp ${CMAKE_CURRENT_LIST_DIR}/plan_sparse.cpp ${CMAKE_CURRENT_LIST_DIR}/interpret.cpp
  ${CMAKE_CURRENT_LIST_DIR}/interpret_frame.cpp ${CMAKE_CURRENT_LIST_DIR}/interpret_sparse.cpp
  ${CMAKE_CURRENT_LIST_DIR}/findings.cpp ${CMAKE_CURRENT_LIST_DIR}/simulate.cpp)

if(LANEMAP_HAVE_CUDA)
  # One kernel template, one asm wrapper per instruction; CMAKE_CUDA_ARCHITECTURES (default: sm_90a code plus
  # compute_80 PTX) decides what the binary runs on. Warning 177 ("declared but never referenced") is expected:
  # the compute_80 PTX leaves out the sm_89/sm_90 wrappers.
  lanemap_method_kernels(lanemap_gpu_kernels ${CMAKE_CURRENT_LIST_DIR}/kernels.cu)
  target_compile_options(lanemap_gpu_kernels PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-diag-suppress=177>)
  target_sources(lanemap_probe_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/one_hot_cuda.cpp)
endif()
