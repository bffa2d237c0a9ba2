# The tensor-memory method (tcgen05.ld / tcgen05.st / tcgen05.mma, docs/probe.md "Tensor Memory"): plan,
# simulator and interpretation, CUDA-free.
target_sources(lanemap_probe_host PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/plan.cpp ${CMAKE_CURRENT_LIST_DIR}/plan_mma.cpp ${CMAKE_CURRENT_LIST_DIR}/simulate_mma.cpp
  ${CMAKE_CURRENT_LIST_DIR}/interpret.cpp)

if(LANEMAP_HAVE_CUDA)
  # The GPU binding, in every CUDA build: it says what a GPU other than sm_100a needs.
  target_sources(lanemap_probe_cuda PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tensor_memory_cuda.cpp)
endif()

# The kernels need nvcc 12.8+ (sm_100a) and run only on an sm_100a GPU.
if(LANEMAP_HAVE_CUDA AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.8)
  # kernels_round_trip.cu: one kernel with every tcgen05 step, sm_100a SASS only, so every CUDA build proves ptxas
  # accepts the tcgen05 strings lanemap emits (docs/reference/tcgen05-descriptors.md#ptxas-acceptance). Nothing
  # links it: the probe kernels below hold the forms.
  add_library(lanemap_gpu_tcgen05_kernels STATIC ${CMAKE_CURRENT_LIST_DIR}/kernels_round_trip.cu)
  set_target_properties(lanemap_gpu_tcgen05_kernels PROPERTIES CUDA_ARCHITECTURES 100a-real)
  target_compile_options(lanemap_gpu_tcgen05_kernels PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)

  # One kernel per tcgen05.ld / tcgen05.st form and per tcgen05.mma PTX string with both sources of A (sm_100a
  # SASS, three translation units that build in parallel), so ptxas checks every form's string.
  lanemap_method_kernels(lanemap_gpu_tcgen05_probe_kernels ${CMAKE_CURRENT_LIST_DIR}/kernels_ld.cu
                         ${CMAKE_CURRENT_LIST_DIR}/kernels_st.cu ${CMAKE_CURRENT_LIST_DIR}/kernels_mma.cu)
  set_target_properties(lanemap_gpu_tcgen05_probe_kernels PROPERTIES CUDA_ARCHITECTURES 100a-real)
  # ptxas -O1 for the mma kernels, as for the wgmma ones: 8.8 -> 6.7 s, and cuobjdump -sass finds the same
  # tcgen05 instructions in each of the 36 kernels, with the same UTC*MMA counts (the ld/st files gain nothing:
  # docs/performance.md#build-and-test-time).
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/kernels_mma.cu TARGET_DIRECTORY lanemap_gpu_tcgen05_probe_kernels
                              PROPERTIES COMPILE_OPTIONS -Xptxas=-O1)
  target_compile_definitions(lanemap_probe_cuda PUBLIC LANEMAP_TCGEN05_PROBES=1) # the GPU tests check the tables
endif()
