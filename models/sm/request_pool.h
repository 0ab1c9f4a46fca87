// Memory requests whose storage (their runs' and lines' arrays) a retired CTA leaves to
// the next CTA on the same SM. A gather stage's arrays grow to hundreds of entries, and
// growing them from nothing again in every CTA is host time: an allocation and a copy
// at each doubling.
#pragma once
#include <cstddef>
#include <vector>

#include "models/memory/memory_system.h"

namespace stcsim {

class RequestPool {
 public:
  // `n` empty requests, with storage from retired CTAs where there is some.
  std::vector<MemRequest> take(std::size_t n) {
    std::vector<MemRequest> out(n);
    for (MemRequest& r : out) {
      if (spare_.empty()) break;
      r = std::move(spare_.back());
      spare_.pop_back();
      r.reset();
    }
    return out;
  }
  // Keeps the requests' storage for later CTAs; `rs` is left empty. None may still be
  // waiting on the memory system.
  void give(std::vector<MemRequest>& rs) {
    for (MemRequest& r : rs) spare_.push_back(std::move(r));
    rs.clear();
  }

 private:
  std::vector<MemRequest> spare_;
};

}  // namespace stcsim
