// A preset's SM parts, fresh, as Sm builds them (models/sm/sm.cpp), for component tests
// that run a CTA or a mainloop step on one SM without the GPU around it.
#pragma once
#include <memory>
#include <vector>

#include "models/common/timeline.h"
#include "models/sm/request_pool.h"
#include "models/sm/sm_context.h"
#include "tests/support/preset_env.h"

namespace stcsim::test {

struct TestSm {
  explicit TestSm(const PresetEnv& p)
      : smem(p.smem->clone_empty()),
        tma(p.tma->clone_empty()),
        cuda(std::size_t(p.sm.sub_cores)),
        issue(std::size_t(p.sm.sub_cores)) {
    for (int i = 0; i < p.sm.sub_cores; ++i) pipes.push_back(p.tc->clone_empty());
    l1 = std::make_unique<SectoredL2>(l1_tag_spec(p.sm));
  }
  SmContext context(const SmSpec& spec) {
    return SmContext{spec,     *smem,           *tma,      pipes, cuda, issue, l1.get(),
                     counters, last_write_done, to_submit, pool};
  }
  std::unique_ptr<ISharedMemory> smem;
  std::unique_ptr<ITma> tma;
  std::vector<std::unique_ptr<ITensorCore>> pipes;
  std::vector<Timeline> cuda;
  std::vector<IssuePort> issue;
  std::unique_ptr<SectoredL2> l1;
  SmCounters counters;
  Cycle last_write_done = 0;
  std::vector<MemRequest*> to_submit;
  RequestPool pool;
};

}  // namespace stcsim::test
