# The tensor-memory probe method (src/probe_tcgen05.hpp): plan, simulator and interpretation, CUDA-free.
target_sources(lanemap_probe_host PRIVATE src/plan_tcgen05.cpp src/plan_tcgen05_mma.cpp src/simulate_tcgen05_mma.cpp
                                          src/interpret_tcgen05.cpp)
# The tcgen05 kernel (src/kernels_tcgen05.cu): sm_100a SASS only, one translation unit, so every CUDA build proves
# ptxas accepts the tcgen05 strings lanemap emits (docs/reference/tcgen05-descriptors.md#ptxas-acceptance). Nothing
# links it yet: it runs only on Blackwell, and lanemap's GPUs are Hopper. Needs nvcc 12.8+ (sm_100a).
if(LANEMAP_HAVE_CUDA AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.8)
  add_library(lanemap_gpu_tcgen05_kernels STATIC src/kernels_tcgen05.cu)
  set_target_properties(lanemap_gpu_tcgen05_kernels PROPERTIES CUDA_ARCHITECTURES 100a-real)
  target_compile_options(lanemap_gpu_tcgen05_kernels PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
endif()

# The tensor-memory probe: the GPU binding (src/probe_tcgen05_cuda.cpp) in every CUDA build, and with nvcc 12.8+
# one kernel per tcgen05.ld / tcgen05.st form and per tcgen05.mma PTX string with both sources of A (sm_100a
# SASS, three translation units that build in parallel), so ptxas checks every form's string
# (src/kernels_tcgen05_{ld,st,mma}.cu). They run only on an sm_100a GPU; elsewhere the binding says what is
# needed.
if(LANEMAP_HAVE_CUDA)
  target_sources(lanemap_probe_cuda PRIVATE src/probe_tcgen05_cuda.cpp)
  if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.8)
    add_library(lanemap_gpu_tcgen05_probe_kernels STATIC src/kernels_tcgen05_ld.cu src/kernels_tcgen05_st.cu
                                                         src/kernels_tcgen05_mma.cu)
    set_target_properties(lanemap_gpu_tcgen05_probe_kernels PROPERTIES CUDA_ARCHITECTURES 100a-real)
    target_compile_options(lanemap_gpu_tcgen05_probe_kernels PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
    target_link_libraries(lanemap_gpu_tcgen05_probe_kernels PRIVATE CUDA::cudart_static)
    # ptxas -O1 for the mma kernels, as for the wgmma ones: 8.8 -> 6.7 s, and cuobjdump -sass finds the same
    # tcgen05 instructions in each of the 36 kernels, with the same UTC*MMA counts (the ld/st files gain nothing:
    # docs/performance.md#build-and-test-time).
    set_source_files_properties(src/kernels_tcgen05_mma.cu TARGET_DIRECTORY lanemap_gpu_tcgen05_probe_kernels
                                PROPERTIES COMPILE_OPTIONS -Xptxas=-O1)
    target_link_libraries(lanemap_probe_cuda PUBLIC lanemap_gpu_tcgen05_probe_kernels)
    target_compile_definitions(lanemap_probe_cuda PUBLIC LANEMAP_TCGEN05_PROBES=1) # the GPU tests check the tables
    # Private to the probe module, as the other kernel archives (gpu/CMakeLists.txt).
    target_link_options(lanemap_probe_kernels PRIVATE -Wl,--exclude-libs,liblanemap_gpu_tcgen05_probe_kernels.a)
  endif()
endif()
