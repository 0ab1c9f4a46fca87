#include "models/memory/memory_system.h"

#include <algorithm>
#include <string>

#include "sim/core/input_error.h"

namespace stcsim {

namespace {

int log2_exact(int v, const char* what) {
  if (v <= 0 || (v & (v - 1)) != 0)
    throw InputError(std::string("memory system: the L2's ") + what + " (" + std::to_string(v) +
                     " bytes) must be a power of two");
  return __builtin_ctz(unsigned(v));
}

}  // namespace

MemorySystem::MemorySystem(sc_core::sc_module_name name, int num_sms, double link_bpc,
                           std::unique_ptr<IL2Cache> l2, std::unique_ptr<IDram> dram)
    : sc_module(name),
      l2_(std::move(l2)),
      dram_(std::move(dram)),
      num_sms_(num_sms),
      link_bpc_(link_bpc),
      read_link_(num_sms),
      write_link_(num_sms),
      grant_(num_sms),
      pending_(num_sms),
      slice_bytes_(l2_->slices(), 0),
      chan_read_(dram_->channels(), 0),
      chan_write_(dram_->channels(), 0),
      chan_far_(std::size_t(dram_->channels()), 0),
      slices_touched_(std::size_t(l2_->slices()) + 1, 0),
      line_shift_(log2_exact(l2_->line_bytes(), "line size")),
      sector_shift_(log2_exact(l2_->sector_bytes(), "sector size")) {
  SC_METHOD(arbitrate);
  sensitive << submitted_;
  dont_initialize();
}

void MemorySystem::submit(int sm, std::vector<MemRequest*> reqs) {
  auto& p = pending_[sm];
  p.insert(p.end(), reqs.begin(), reqs.end());
  submitted_.notify(sc_core::SC_ZERO_TIME);
}

Cycle MemorySystem::idle_at() const {
  Cycle t = std::max(l2_->idle_at(), dram_->idle_at());
  for (const auto& l : read_link_) t = std::max(t, l.free_at());
  for (const auto& l : write_link_) t = std::max(t, l.free_at());
  return t;
}

Cycle MemorySystem::link_busy_cycles() const {
  Cycle b = 0;
  for (const auto& t : read_link_) b += t.busy_cycles();
  for (const auto& t : write_link_) b += t.busy_cycles();
  return b;
}

void MemorySystem::arbitrate() {
  const Cycle now = now_cycles();
  for (int sm = 0; sm < int(pending_.size()); ++sm) {
    if (pending_[sm].empty()) continue;
    for (MemRequest* r : pending_[sm]) serve(sm, *r, now);
    pending_[sm].clear();
    grant_[sm].notify(sc_core::SC_ZERO_TIME);
  }
  if (trace_signals) {
    inflight_until_.erase(std::remove_if(inflight_until_.begin(), inflight_until_.end(),
                                         [&](Cycle c) { return c <= now; }),
                          inflight_until_.end());
    inflight_requests.write(int(inflight_until_.size()));
  }
}

void MemorySystem::serve(int sm, MemRequest& r, Cycle now) {
  const int sector = l2_->sector_bytes();
  const int home = sm * l2_->partitions() / num_sms_;  // this SM's L2 partition
  // The request's lines, in order, then their L2 lookups in one batch. Fields are
  // written in place (an L2Line built aside and copied in stalls the host's store
  // forwarding), lines and sectors found by shifts (both are powers of two).
  // Lines cut by an L1 in this L2's own geometry are taken as they are; in another, cut
  // again, stretch of missed sectors by stretch (at most four a line).
  const bool l1_geometry = (1 << line_shift_) == MemRequest::kLineBytes &&
                           (1 << sector_shift_) == MemRequest::kSectorBytes;
  std::size_t cap =
      l1_geometry ? 0 : r.lines.size() * 4 * ((MemRequest::kLineBytes >> line_shift_) + 2);
  for (const RowRun& run : r.runs) cap += std::size_t(run.rows) * ((run.bytes >> line_shift_) + 2);
  if (lines_.size() < cap) lines_.resize(cap);
  // Results for the runs' lines, then for r.lines when they are looked up where they are.
  if (results_.size() < cap + r.lines.size()) results_.resize(cap + r.lines.size());
  const std::uint64_t line = std::uint64_t{1} << line_shift_;
  // Plain pointers: a byte store (a sector mask) may alias anything, so through the
  // members the host would reload the vectors' addresses after every line.
  L2Line* const ls = lines_.data();
  std::size_t n = 0;
  // Bytes [a0, a1) as lines, each with the sectors it overlaps.
  const auto cut = [&](std::uint64_t a0, std::uint64_t a1) {
    for (std::uint64_t la = a0 >> line_shift_ << line_shift_; la < a1; la += line) {
      const std::uint64_t lo = std::max(a0, la), hi = std::min(a1, la + line);
      const int s0 = int((lo - la) >> sector_shift_);
      const int s1 = int((hi - la + sector - 1) >> sector_shift_);
      ls[n].addr = la;
      ls[n].sectors = std::uint8_t(((1u << s1) - 1) & ~((1u << s0) - 1));
      ++n;
    }
  };
  for (const RowRun& run : r.runs)
    for (std::uint32_t row = 0; row < run.rows; ++row) {
      const std::uint64_t a0 = run.addr + row * run.stride;
      cut(a0, a0 + run.bytes);
    }
  if (!l1_geometry) {
    for (const L2Line& l : r.lines)
      for (unsigned m = l.sectors; m != 0;) {
        const unsigned s = unsigned(__builtin_ctz(m)), e = s + unsigned(__builtin_ctz(~(m >> s)));
        m &= ~((1u << e) - 1);
        cut(l.addr + s * MemRequest::kSectorBytes, l.addr + e * MemRequest::kSectorBytes);
      }
  }
  l2_->access_lines(ls, n, r.write, results_.data());
  // Lines cut by the L1 in this L2's geometry: looked up where they are, after the rest
  // (one batch after another: the same lookups in the same order as one batch).
  const std::size_t n_cut = n;
  if (l1_geometry && !r.lines.empty()) {
    l2_->access_lines(r.lines.data(), r.lines.size(), r.write, results_.data() + n);
    n += r.lines.size();
  }
  // Sector counts are whole numbers: summed here and added to the counters once, the
  // same totals as adding them line by line.
  std::int64_t sectors = 0, miss_sectors = 0;
  std::size_t touched = 0;  // slices_touched_[0, touched): this request's slices
  std::int64_t* const slice_bytes = slice_bytes_.data();
  int* const slices_touched = slices_touched_.data();
  // Each looked-up line's bytes to its slice, its missed sectors and write-back to DRAM.
  const auto account = [&](const L2Line* lines, const L2AccessResult* rs, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t la = lines[i].addr;
      const int nsect = sector_count(lines[i].sectors);
      const L2AccessResult& res = rs[i];
      const int slice = res.slice;
      // Recorded in first-touch order without a branch (which slice comes next is data
      // the host cannot predict): written always, kept when the slice was untouched.
      slices_touched[touched] = slice;
      touched += slice_bytes[slice] == 0 ? 1 : 0;
      slice_bytes[slice] += nsect * sector;
      sectors += nsect;
      if (res.miss_sectors) {
        const int ch = dram_->channel_of(la);
        if (chan_read_[ch] == 0 && chan_write_[ch] == 0) chans_touched_.push_back(ch);
        const int m = sector_count(res.miss_sectors);
        chan_read_[ch] += m * sector;
        // Only a miss asks which partition its slice is in (hits are the common case).
        chan_far_[std::size_t(ch)] |= char(l2_->partition_of_slice(slice) != home);
        miss_sectors += m;
      }
      if (res.evicted_dirty) {
        const int ch = dram_->channel_of(res.evicted_line_addr);
        if (chan_read_[ch] == 0 && chan_write_[ch] == 0) chans_touched_.push_back(ch);
        chan_write_[ch] += sector_count(res.evicted_dirty) * sector;
      }
    }
  };
  account(ls, results_.data(), n_cut);
  if (n > n_cut) account(r.lines.data(), results_.data() + n_cut, n - n_cut);
  const double total = double(sectors) * sector;
  counters_.l2_read_miss_sectors += double(miss_sectors);
  (r.write ? counters_.l2_write_sectors : counters_.l2_read_sectors) += double(sectors);
  const double link_bytes = total + (r.write ? 0 : r.multicast_bytes);
  counters_.link_bytes += link_bytes;
  const double half = l2_->hit_latency() / 2.0;            // request to the slice, data back
  const double far_half = l2_->far_extra_latency() / 2.0;  // the crossbar, each way
  const double link_time = link_bytes / link_bpc_;
  Cycle ready = now;
  Cycle arrive = now;
  if (r.write) {
    // Data leaves the SM over its link, then is written into the slices.
    const Cycle start = write_link_[sm].reserve(now, link_time);
    r.link_done = start + link_time;
    arrive = start + half;
  }
  bool any_far = false;
  for (std::size_t i = 0; i < touched; ++i) {
    const int s = slices_touched_[i];
    const int part = l2_->partition_of_slice(s);
    const bool far = part != home;
    any_far |= far;
    const double extra = far ? far_half : 0;
    Cycle at = arrive + extra;
    // Far bytes cross the crossbar: writes on the way in, read data on the way back.
    const double bytes = double(slice_bytes_[s]);
    if (far && r.write) at = l2_->reserve_crossbar(home, part, at, bytes);
    const Cycle t = l2_->reserve_slice(s, at, bytes);
    const Cycle out = far && !r.write ? l2_->reserve_crossbar(part, home, t, bytes) : t;
    ready = std::max(ready, out + half + extra);
    slice_bytes_[s] = 0;
  }
  for (int c : chans_touched_) {
    if (chan_read_[c] > 0) {
      // A miss reaches DRAM after the tag lookup and returns through the slice (and,
      // from a far slice, through the crossbar both ways).
      const double extra = chan_far_[std::size_t(c)] ? far_half : 0;
      const Cycle t = dram_->reserve(c, arrive + half + extra, double(chan_read_[c]));
      ready = std::max(ready, t + half + extra);
      counters_.dram_read_bytes += double(chan_read_[c]);
    }
    if (chan_write_[c] > 0) {
      dram_->reserve(c, arrive + half, double(chan_write_[c]));  // write-back: nobody waits on it
      counters_.dram_write_bytes += double(chan_write_[c]);
    }
    chan_read_[c] = chan_write_[c] = 0;
    chan_far_[std::size_t(c)] = 0;
  }
  chans_touched_.clear();
  if (!r.write) {
    // The data streams back over the SM's link as it arrives; a request that touches the
    // other partition is complete only when its far data is back.
    const Cycle start =
        read_link_[sm].reserve(now + 2 * half + (any_far ? 2 * far_half : 0), link_time);
    r.link_done = start + link_time;
    ready = std::max(ready, r.link_done);
  }
  r.done = ready;
  if (trace_signals) inflight_until_.push_back(ready);
}

}  // namespace stcsim
