#include "validation/harness/baselines.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cusparse.h>
#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <vector>

#include "validation/harness/cuda_check.h"
#include "validation/harness/library_path.h"

namespace stcsim::validation {

namespace {

// The loaded file of each library, for library_path().
std::map<std::string, std::string>& loaded_paths() {
  static std::map<std::string, std::string> m;
  return m;
}

// The first candidate (library_path.h: override variable, soname, site-packages) that
// loads; nullptr and `why` otherwise.
void* open_library(const char* key, const char* env_var, const std::vector<std::string>& sonames,
                   const char* probe, std::string& why) {
  const LoadedLibrary l = load_first(library_candidates(env_var, sonames), probe, why);
  if (l.handle) loaded_paths()[key] = l.path;
  return l.handle;
}

template <typename F>
F need(void* lib, const char* name) {
  void* p = ::dlsym(lib, name);
  if (!p) throw std::runtime_error(std::string("symbol ") + name + " missing");
  return reinterpret_cast<F>(p);
}

void check(int status, const char* what) {
  if (status != 0)
    throw std::runtime_error(std::string(what) + " returned status " + std::to_string(status));
}

// ---- cuBLAS ----
// cublasGemmEx's C signature (the header also declares C++ overloads, so no decltype).
using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                  int, const void*, const void*, cudaDataType, int, const void*,
                                  cudaDataType, int, const void*, void*, cudaDataType, int,
                                  cublasComputeType_t, cublasGemmAlgo_t);

class Cublas : public VendorGemm {
 public:
  Cublas(void* lib, const void* x, const void* w, void* y, int m, int n, int k)
      : x_(x), w_(w), y_(y), m_(m), n_(n), k_(k) {
    create_ = need<decltype(&cublasCreate_v2)>(lib, "cublasCreate_v2");
    set_stream_ = need<decltype(&cublasSetStream_v2)>(lib, "cublasSetStream_v2");
    gemm_ = need<GemmEx>(lib, "cublasGemmEx");
    destroy_ = need<decltype(&cublasDestroy_v2)>(lib, "cublasDestroy_v2");
    check(create_(&h_), "cublasCreate");
  }
  ~Cublas() override { destroy_(h_); }
  void launch(cudaStream_t s) override {
    const float alpha = 1, beta = 0;
    check(set_stream_(h_, s), "cublasSetStream");
    // y^T [N x M] = W (K x N column-major, transposed) * x^T (K x M column-major)
    check(gemm_(h_, CUBLAS_OP_T, CUBLAS_OP_N, n_, m_, k_, &alpha, w_, CUDA_R_16F, k_, x_,
                CUDA_R_16F, k_, &beta, y_, CUDA_R_16F, n_, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  }

 private:
  const void *x_, *w_;
  void* y_;
  int m_, n_, k_;
  cublasHandle_t h_ = nullptr;
  decltype(&cublasCreate_v2) create_;
  decltype(&cublasSetStream_v2) set_stream_;
  GemmEx gemm_;
  decltype(&cublasDestroy_v2) destroy_;
};

// ---- cuBLASLt ----
class CublasLt : public VendorGemm {
 public:
  CublasLt(void* lib, const void* x, const void* w, void* y, int m, int n, int k)
      : x_(x), w_(w), y_(y) {
    auto create = need<decltype(&cublasLtCreate)>(lib, "cublasLtCreate");
    auto desc_create = need<decltype(&cublasLtMatmulDescCreate)>(lib, "cublasLtMatmulDescCreate");
    auto desc_set =
        need<decltype(&cublasLtMatmulDescSetAttribute)>(lib, "cublasLtMatmulDescSetAttribute");
    auto layout = need<decltype(&cublasLtMatrixLayoutCreate)>(lib, "cublasLtMatrixLayoutCreate");
    auto pref_create =
        need<decltype(&cublasLtMatmulPreferenceCreate)>(lib, "cublasLtMatmulPreferenceCreate");
    auto pref_set = need<decltype(&cublasLtMatmulPreferenceSetAttribute)>(
        lib, "cublasLtMatmulPreferenceSetAttribute");
    auto heuristic =
        need<decltype(&cublasLtMatmulAlgoGetHeuristic)>(lib, "cublasLtMatmulAlgoGetHeuristic");
    matmul_ = need<decltype(&cublasLtMatmul)>(lib, "cublasLtMatmul");
    destroy_ = need<decltype(&cublasLtDestroy)>(lib, "cublasLtDestroy");
    desc_destroy_ = need<decltype(&cublasLtMatmulDescDestroy)>(lib, "cublasLtMatmulDescDestroy");
    layout_destroy_ =
        need<decltype(&cublasLtMatrixLayoutDestroy)>(lib, "cublasLtMatrixLayoutDestroy");
    auto pref_destroy =
        need<decltype(&cublasLtMatmulPreferenceDestroy)>(lib, "cublasLtMatmulPreferenceDestroy");
    check(create(&h_), "cublasLtCreate");
    check(desc_create(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
    const cublasOperation_t op_t = CUBLAS_OP_T;
    check(desc_set(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &op_t, sizeof op_t),
          "cublasLtMatmulDescSetAttribute");
    check(layout(&a_, CUDA_R_16F, k, n, k), "cublasLtMatrixLayoutCreate");  // W: K x N column-major
    check(layout(&b_, CUDA_R_16F, k, m, k), "cublasLtMatrixLayoutCreate");  // x: K x M column-major
    check(layout(&c_, CUDA_R_16F, n, m, n),
          "cublasLtMatrixLayoutCreate");  // y^T: N x M column-major
    CUDA_CHECK(cudaMalloc(&workspace_, kWorkspace));
    cublasLtMatmulPreference_t pref;
    check(pref_create(&pref), "cublasLtMatmulPreferenceCreate");
    const std::size_t ws = kWorkspace;
    check(pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws),
          "cublasLtMatmulPreferenceSetAttribute");
    int found = 0;
    const int hs = heuristic(h_, desc_, a_, b_, c_, c_, pref, 1, &algo_, &found);
    pref_destroy(pref);
    check(hs, "cublasLtMatmulAlgoGetHeuristic");
    if (found < 1) throw std::runtime_error("cublasLtMatmulAlgoGetHeuristic found no algorithm");
  }
  ~CublasLt() override {
    cudaFree(workspace_);
    for (cublasLtMatrixLayout_t l : {a_, b_, c_})
      if (l) layout_destroy_(l);
    if (desc_) desc_destroy_(desc_);
    if (h_) destroy_(h_);
  }
  void launch(cudaStream_t s) override {
    const float alpha = 1, beta = 0;
    check(matmul_(h_, desc_, &alpha, w_, a_, x_, b_, &beta, y_, c_, y_, c_, &algo_.algo, workspace_,
                  kWorkspace, s),
          "cublasLtMatmul");
  }

 private:
  static constexpr std::size_t kWorkspace = 32u << 20;
  const void *x_, *w_;
  void* y_;
  cublasLtHandle_t h_ = nullptr;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
  cublasLtMatmulHeuristicResult_t algo_{};
  void* workspace_ = nullptr;
  decltype(&cublasLtMatmul) matmul_;
  decltype(&cublasLtDestroy) destroy_;
  decltype(&cublasLtMatmulDescDestroy) desc_destroy_;
  decltype(&cublasLtMatrixLayoutDestroy) layout_destroy_;
};

// ---- cuSPARSELt (no header in the toolkit: the few declarations, from its documentation) ----
struct alignas(256) LtOpaque {
  unsigned char data[16384];  // larger than any release's opaque structures
};
constexpr int kLtSparsity50 = 0, kLtAlgDefault = 0;
constexpr int kLtCompute32F = 2;  // cusparseComputeType since 0.6: 32I = 0, 16F = 1, 32F = 2

class CusparseLt : public VendorGemm {
  using Status = int;
  using Init = Status (*)(LtOpaque*);
  using Dense = Status (*)(const LtOpaque*, LtOpaque*, std::int64_t, std::int64_t, std::int64_t,
                           std::uint32_t, cudaDataType, cusparseOrder_t);
  using Structured = Status (*)(const LtOpaque*, LtOpaque*, std::int64_t, std::int64_t,
                                std::int64_t, std::uint32_t, cudaDataType, cusparseOrder_t, int);
  using MatmulDesc = Status (*)(const LtOpaque*, LtOpaque*, cusparseOperation_t,
                                cusparseOperation_t, const LtOpaque*, const LtOpaque*,
                                const LtOpaque*, const LtOpaque*, int);
  using AlgInit = Status (*)(const LtOpaque*, LtOpaque*, const LtOpaque*, int);
  using PlanInit = Status (*)(const LtOpaque*, LtOpaque*, const LtOpaque*, const LtOpaque*);
  using Workspace = Status (*)(const LtOpaque*, const LtOpaque*, std::size_t*);
  using CompressedSize = Status (*)(const LtOpaque*, const LtOpaque*, std::size_t*, std::size_t*);
  using Compress = Status (*)(const LtOpaque*, const LtOpaque*, const void*, void*, void*,
                              cudaStream_t);
  using Matmul = Status (*)(const LtOpaque*, const LtOpaque*, const void*, const void*, const void*,
                            const void*, const void*, void*, void*, cudaStream_t*, std::int32_t);
  using Destroy = Status (*)(const LtOpaque*);  // handle, descriptors, plan, alg selection

 public:
  CusparseLt(void* lib, const void* x, const void* w, void* y, int m, int n, int k, cudaStream_t s)
      : x_(x), y_(y) {
    matmul_ = need<Matmul>(lib, "cusparseLtMatmul");
    destroy_ = reinterpret_cast<Destroy>(::dlsym(lib, "cusparseLtDestroy"));
    desc_destroy_ = reinterpret_cast<Destroy>(::dlsym(lib, "cusparseLtMatDescriptorDestroy"));
    plan_destroy_ = reinterpret_cast<Destroy>(::dlsym(lib, "cusparseLtMatmulPlanDestroy"));
    alg_destroy_ = reinterpret_cast<Destroy>(::dlsym(lib, "cusparseLtMatmulAlgSelectionDestroy"));
    check(need<Init>(lib, "cusparseLtInit")(&h_), "cusparseLtInit");
    // A = W structured (N x K row-major), B = x (M x K row-major, used transposed),
    // C = D = y^T (N x M column-major), as PyTorch's semi-structured path describes them.
    check(need<Structured>(lib, "cusparseLtStructuredDescriptorInit")(
              &h_, &a_, n, k, k, 16, CUDA_R_16F, CUSPARSE_ORDER_ROW, kLtSparsity50),
          "cusparseLtStructuredDescriptorInit");
    auto dense = need<Dense>(lib, "cusparseLtDenseDescriptorInit");
    check(dense(&h_, &b_, m, k, k, 16, CUDA_R_16F, CUSPARSE_ORDER_ROW),
          "cusparseLtDenseDescriptorInit");
    check(dense(&h_, &c_, n, m, n, 16, CUDA_R_16F, CUSPARSE_ORDER_COL),
          "cusparseLtDenseDescriptorInit");
    check(need<MatmulDesc>(lib, "cusparseLtMatmulDescriptorInit")(
              &h_, &mm_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_TRANSPOSE, &a_, &b_,
              &c_, &c_, kLtCompute32F),
          "cusparseLtMatmulDescriptorInit");
    check(need<AlgInit>(lib, "cusparseLtMatmulAlgSelectionInit")(&h_, &alg_, &mm_, kLtAlgDefault),
          "cusparseLtMatmulAlgSelectionInit");
    check(need<PlanInit>(lib, "cusparseLtMatmulPlanInit")(&h_, &plan_, &mm_, &alg_),
          "cusparseLtMatmulPlanInit");
    std::size_t ws = 0, csize = 0, cbuf = 0;
    check(need<Workspace>(lib, "cusparseLtMatmulGetWorkspace")(&h_, &plan_, &ws),
          "cusparseLtMatmulGetWorkspace");
    check(need<CompressedSize>(lib, "cusparseLtSpMMACompressedSize")(&h_, &plan_, &csize, &cbuf),
          "cusparseLtSpMMACompressedSize");
    CUDA_CHECK(cudaMalloc(&workspace_, ws ? ws : 16));
    CUDA_CHECK(cudaMalloc(&compressed_, csize));
    void* buffer = nullptr;
    CUDA_CHECK(cudaMalloc(&buffer, cbuf ? cbuf : 16));
    check(need<Compress>(lib, "cusparseLtSpMMACompress")(&h_, &plan_, w, compressed_, buffer, s),
          "cusparseLtSpMMACompress");
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaFree(buffer));
    // cusparseLtMatmulSearch times the library's kernels and split-K choices on these
    // operands and keeps the fastest in the plan (the default algorithm understates it).
    const float alpha = 1, beta = 0;
    const Status st = need<Matmul>(lib, "cusparseLtMatmulSearch")(
        &h_, &plan_, &alpha, compressed_, x_, &beta, y_, y_, workspace_, &s, 1);
    CUDA_CHECK(cudaStreamSynchronize(s));
    note_ = st == 0 ? "cusparseLtMatmulSearch: ok"
                    : "cusparseLtMatmulSearch returned " + std::to_string(st) +
                          ": default algorithm kept";
    std::size_t ws2 = 0;  // the chosen configuration may need more workspace
    check(need<Workspace>(lib, "cusparseLtMatmulGetWorkspace")(&h_, &plan_, &ws2),
          "cusparseLtMatmulGetWorkspace");
    if (ws2 > ws) {
      CUDA_CHECK(cudaFree(workspace_));
      workspace_ = nullptr;
      CUDA_CHECK(cudaMalloc(&workspace_, ws2));
    }
  }
  ~CusparseLt() override {
    cudaFree(workspace_);
    cudaFree(compressed_);
    if (plan_destroy_) plan_destroy_(&plan_);
    if (alg_destroy_) alg_destroy_(&alg_);  // cuSPARSELt >= 0.7 has it
    if (desc_destroy_)
      for (const LtOpaque* d : {&a_, &b_, &c_}) desc_destroy_(d);
    if (destroy_) destroy_(&h_);
  }
  void launch(cudaStream_t s) override {
    const float alpha = 1, beta = 0;
    check(matmul_(&h_, &plan_, &alpha, compressed_, x_, &beta, y_, y_, workspace_, &s, 1),
          "cusparseLtMatmul");
  }

 private:
  const void* x_;
  void* y_;
  void *workspace_ = nullptr, *compressed_ = nullptr;
  LtOpaque h_{}, a_{}, b_{}, c_{}, mm_{}, alg_{}, plan_{};
  Matmul matmul_;
  Destroy destroy_ = nullptr, desc_destroy_ = nullptr, plan_destroy_ = nullptr,
          alg_destroy_ = nullptr;
  std::string note_;

 public:
  std::string note() const override { return note_; }
};

template <typename Make>
std::unique_ptr<VendorGemm> guarded(Make make, std::string& why) {
  try {
    return make();
  } catch (const std::exception& e) {
    why = std::string("error: ") + e.what();
    return nullptr;
  }
}

}  // namespace

std::unique_ptr<VendorGemm> make_cublas(const void* x, const void* w, void* y, int m, int n, int k,
                                        std::string& why) {
  static void* lib = nullptr;
  static std::string lib_why;
  if (!lib && lib_why.empty())
    lib = open_library("cublas", "STCSIM_CUBLAS_LIB",
                       {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}, "cublasCreate_v2",
                       lib_why);
  if (!lib) return why = lib_why, nullptr;
  return guarded([&] { return std::make_unique<Cublas>(lib, x, w, y, m, n, k); }, why);
}

std::unique_ptr<VendorGemm> make_cublaslt(const void* x, const void* w, void* y, int m, int n,
                                          int k, std::string& why) {
  static void* lib = nullptr;
  static std::string lib_why;
  if (!lib && lib_why.empty())
    lib = open_library("cublaslt", "STCSIM_CUBLASLT_LIB",
                       {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"},
                       "cublasLtCreate", lib_why);
  if (!lib) return why = lib_why, nullptr;
  return guarded([&] { return std::make_unique<CublasLt>(lib, x, w, y, m, n, k); }, why);
}

std::unique_ptr<VendorGemm> make_cusparselt(const void* x, const void* w, void* y, int m, int n,
                                            int k, cudaStream_t s, std::string& why) {
  static void* lib = nullptr;
  static std::string lib_why;
  if (!lib && lib_why.empty()) {
    lib = open_library("cusparselt", "STCSIM_CUSPARSELT_LIB",
                       {"libcusparseLt.so.0", "libcusparseLt.so"}, "cusparseLtInit", lib_why);
    int major = -1, minor = -1;
    auto prop = lib ? reinterpret_cast<int (*)(libraryPropertyType, int*)>(
                          ::dlsym(lib, "cusparseLtGetProperty"))
                    : nullptr;
    if (lib && (!prop || prop(MAJOR_VERSION, &major) != 0 || prop(MINOR_VERSION, &minor) != 0 ||
                (major == 0 && minor < 6))) {
      lib_why = "unsupported: cuSPARSELt " + std::to_string(major) + "." + std::to_string(minor) +
                " (needs >= 0.6)";
      lib = nullptr;
    }
  }
  if (!lib) return why = lib_why, nullptr;
  return guarded([&] { return std::make_unique<CusparseLt>(lib, x, w, y, m, n, k, s); }, why);
}

std::string library_path(const std::string& lib) {
  const auto it = loaded_paths().find(lib);
  return it == loaded_paths().end() ? std::string() : it->second;
}

}  // namespace stcsim::validation
