#include "sim/sweep/workload_check.h"

// `stcsim run` reads traces of format 0 and 1 through read_any_trace where the
// workloads driver is built in, and format 0 through read_gemm_trace before it was.
#if __has_include("sim/driver/workload_ops.h")
#include "sim/driver/workload_ops.h"
#define STCSIM_SWEEP_TRACE_READER read_any_trace
#else
#include "sim/driver/gemm_list.h"
#define STCSIM_SWEEP_TRACE_READER read_gemm_trace
#endif

namespace stcsim::sweep {

void check_trace(const std::string& path, Dtype default_dtype) {
  STCSIM_SWEEP_TRACE_READER(path, default_dtype);
}

}  // namespace stcsim::sweep
