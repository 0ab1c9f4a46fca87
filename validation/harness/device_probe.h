// The device seen from a child process (isolation.h), so that the calling process never
// initialises CUDA and its later children start clean: what the microbenchmarks and the
// bit capture record about the GPU and decide by (compute capability, SM count).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace stcsim::validation {

// 0 with `device` = {name, compute_capability "9.0", sm_count, l2_bytes, global_mem_bytes,
// smem_per_block_optin}; 77 without a GPU (after printing "skipped: no GPU"); 1 when the
// query faulted. `scratch` is a folder for the child's files.
int probe_device(const std::string& scratch, double timeout_s, nlohmann::json& device);

}  // namespace stcsim::validation
