// Every CUDA runtime call of the harness goes through CUDA_CHECK: a failure throws with
// the call, file and line (exit status 0 proves nothing, METHOD.md).
#pragma once
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#define CUDA_CHECK(expr)                                                                           \
  do {                                                                                             \
    const cudaError_t stcsim_err_ = (expr);                                                        \
    if (stcsim_err_ != cudaSuccess)                                                                \
      throw std::runtime_error(std::string(#expr) + " failed at " + __FILE__ + ":" +               \
                               std::to_string(__LINE__) + ": " + cudaGetErrorString(stcsim_err_)); \
  } while (0)
