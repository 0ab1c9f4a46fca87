// Vendor baselines, each loaded with dlopen so the harness builds and runs without
// them (a missing library is recorded as "absent: ..."):
//   cuBLAS   cublasGemmEx, fp16 in/out, fp32 compute        (libcublas.so.13/.12)
//   cuBLASLt cublasLtMatmul, its first heuristic algorithm  (libcublasLt.so.13/.12)
//   cuSPARSELt 2:4 (libcusparseLt.so.0, >= 0.6): the pruned W compressed by the library
//            itself, the plan tuned by cusparseLtMatmulSearch on the operands; every
//            plan, descriptor and handle destroyed with the object.
// All compute y[M, N] = x[M, K] W[N, K]^T in row-major fp16 (y^T = W x^T column-major).
#pragma once
#include <cuda_runtime_api.h>

#include <memory>
#include <string>

namespace stcsim::validation {

class VendorGemm {
 public:
  virtual ~VendorGemm() = default;
  virtual void launch(cudaStream_t s) = 0;         // throws on a library error
  virtual std::string note() const { return ""; }  // how it was set up, when worth saying
};

// nullptr with `why` ("absent: ...", "unsupported: ...", "error: ...") when unavailable.
// Device pointers stay owned by the caller and must outlive the object.
std::unique_ptr<VendorGemm> make_cublas(const void* x, const void* w, void* y, int m, int n, int k,
                                        std::string& why);
std::unique_ptr<VendorGemm> make_cublaslt(const void* x, const void* w, void* y, int m, int n,
                                          int k, std::string& why);
// w must be 2:4 along K; the library compresses its own copy.
std::unique_ptr<VendorGemm> make_cusparselt(const void* x, const void* w, void* y, int m, int n,
                                            int k, cudaStream_t s, std::string& why);

// The file a library was loaded from ("" before it loads).
std::string library_path(const std::string& lib);  // "cublas", "cublaslt", "cusparselt"

}  // namespace stcsim::validation
