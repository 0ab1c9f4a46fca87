// What the power model reads of one op and what it reports for it. SystemC-free and
// free of the kernels, so the op's record (models/kernels/op_result.h) can carry the
// report without a folder include circle.
#pragma once
#include "models/common/dtype.h"

namespace stcsim {

// What an op did, counted by the GPU over the op's cycles at the preset clock.
struct PowerActivity {
  Dtype dtype = Dtype::FP16;
  bool sparse = false;         // the tensor cores ran mma.sp (N:M sparse A)
  double cycles = 0;           // core clock cycles (taken as clock-independent)
  double tensor_products = 0;  // real multiplies the tensor pipes executed
  double cuda_fmas = 0;        // FMAs on the CUDA cores (the CSR kernel)
  double smem_bytes = 0;       // bytes through the shared-memory (L1 data) port
  double l2_bytes = 0;         // L2 sectors read and written, in bytes
  double dram_bytes = 0;       // DRAM reads and write-backs
};

// The op's energy by component at the settled clock, its average power and the clock.
// All zero when the GPU has no power model (clock_mhz 0: the stats are not written).
struct PowerReport {
  double joules = 0;  // the sum of the parts below
  double tensor_joules = 0, sparse_select_joules = 0, cuda_joules = 0, smem_joules = 0,
         l2_joules = 0, dram_joules = 0, static_joules = 0;
  double watts = 0;      // joules / seconds at the settled clock
  double clock_mhz = 0;  // the settled SM clock (or gpu.measured_clock_mhz)
  double throttled = 0;  // 1: settled below the preset clock
  // 1: even the lowest clock (or the measured one) draws more than the limit
  double over_limit = 0;
};

}  // namespace stcsim
