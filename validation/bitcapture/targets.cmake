# Included by validation/standalone/CMakeLists.txt: stcsim_bitcapture, the GPU program,
# built for sm_80 and sm_90a (the wgmma kernels are empty in the sm_80 image and only
# launched on 9.0). It needs the functional model (the host packs operands into registers
# with its layouts), so it is not built without Boost. The comparator, stcsim_bitcompare,
# runs where the simulator is built (validation/CMakeLists.txt), not on the GPU machine.
if(STCSIM_STANDALONE_FUNCTIONAL)
  set(_b ${STCSIM_ROOT}/validation/bitcapture)
  add_library(stcsim_sa_bitcapture_host STATIC ${_b}/capture_file.cpp ${_b}/instruction_layout.cpp
    ${_b}/operand_gen.cpp ${_b}/replay.cpp ${_b}/plan.cpp ${_b}/comparator.cpp)
  target_link_libraries(stcsim_sa_bitcapture_host PUBLIC stcsim_sa_host)
  add_executable(stcsim_bitcapture ${_b}/bitcapture_main.cpp ${_b}/capture_kernels.cu
    ${STCSIM_ROOT}/validation/harness/device_probe.cpp)
  set_target_properties(stcsim_bitcapture PROPERTIES CUDA_ARCHITECTURES "${STCSIM_UBENCH_ARCHITECTURES}")
  target_link_libraries(stcsim_bitcapture PRIVATE stcsim_sa_bitcapture_host CUDA::cudart_static)
else()
  message(STATUS "stcsim_bitcapture not built: it needs the functional model (Boost headers)")
endif()
