# The tcgen05 kernel (src/kernels_tcgen05.cu): sm_100a SASS only, one translation unit, so every CUDA build proves
# ptxas accepts the tcgen05 strings lanemap emits (docs/reference/tcgen05-descriptors.md#ptxas-acceptance). Nothing
# links it yet: it runs only on Blackwell, and lanemap's GPUs are Hopper. Needs nvcc 12.8+ (sm_100a).
if(LANEMAP_HAVE_CUDA AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.8)
  add_library(lanemap_gpu_tcgen05_kernels STATIC src/kernels_tcgen05.cu)
  set_target_properties(lanemap_gpu_tcgen05_kernels PROPERTIES CUDA_ARCHITECTURES 100a-real)
  target_compile_options(lanemap_gpu_tcgen05_kernels PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
endif()
