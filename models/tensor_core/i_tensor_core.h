// Kind "tensor_core": the matrix pipeline of one SM sub-core.
//
// Contract: `issue(ready, dtype)` accepts one warp-level mma instruction of the dtype's
// dense shape (see dense_mma_shape) no earlier than cycle `ready` and no earlier than
// the pipe's initiation interval allows after the previous instruction; it returns the
// issue cycle. The result is available `latency(dtype)` cycles after issue. An
// implementation must not accept a dtype it does not support (`supports`).
#pragma once
#include <memory>

#include "models/common/cycles.h"
#include "models/common/dtype.h"

namespace stcsim {

class ITensorCore {
 public:
  virtual ~ITensorCore() = default;
  virtual bool supports(Dtype d) const = 0;
  virtual int initiation_interval(Dtype d) const = 0;
  virtual int latency(Dtype d) const = 0;
  virtual Cycle issue(Cycle ready, Dtype d) = 0;
  virtual Cycle busy_cycles() const = 0;
  // The earliest cycle the next instruction could issue.
  virtual Cycle free_at() const = 0;
  // A fresh pipe with the same parameters (one per sub-core).
  virtual std::unique_ptr<ITensorCore> clone_empty() const = 0;
};

}  // namespace stcsim
