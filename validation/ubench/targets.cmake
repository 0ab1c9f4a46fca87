# Included by validation/standalone/CMakeLists.txt: stcsim_ubench, built for sm_80 and
# sm_90a (the wgmma benchmarks are empty in the sm_80 image and only launched on 9.0).
set(_u ${STCSIM_ROOT}/validation/ubench)
add_executable(stcsim_ubench ${_u}/main.cpp ${STCSIM_ROOT}/validation/harness/device_probe.cpp ${_u}/mma_bench.cu ${_u}/wgmma_bench.cu ${_u}/memory_bench.cu ${_u}/mainloop_bench.cu)
set_target_properties(stcsim_ubench PROPERTIES CUDA_ARCHITECTURES "${STCSIM_UBENCH_ARCHITECTURES}")
target_link_libraries(stcsim_ubench PRIVATE stcsim_sa_host CUDA::cudart_static)
