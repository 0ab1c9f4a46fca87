// A CTA's fetch of its slice of a sparse format's index arrays (BSR or CSR row_ptr and
// col_idx), which must be back before any operand load of the CTA can be addressed.
#pragma once
#include "models/memory/memory_system.h"
#include "models/sm/sm_context.h"

namespace stcsim {

class IndexFetch {
 public:
  bool issued() const { return issued_; }
  // The request to fill with the slice's runs before issue().
  MemRequest& request() { return req_; }
  void issue(SmContext& sm, Cycle now) {
    sm.submit(req_);
    issued_ = true;
    issued_at_ = now;
  }
  // True once the indices are back; else `wake` is set to when they will be.
  bool back(Cycle now, Cycle& wake) const {
    if (reached(req_.done, now)) return true;
    wake = req_.done;
    return false;
  }
  Cycle done() const { return req_.done; }
  Cycle issued_at() const { return issued_at_; }

 private:
  MemRequest req_;
  bool issued_ = false;
  Cycle issued_at_ = 0;
};

}  // namespace stcsim
