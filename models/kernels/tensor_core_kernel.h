// What the tensor-core GEMM kernels (multistage_gemm, block_sparse_gemm) share: the
// mapping chooser, occupancy by the SM's resources, the check that the tensor cores run
// the op's instruction, and the operand tensors they allocate.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "models/kernels/gemm_tensors.h"
#include "models/kernels/i_kernel.h"

namespace stcsim {

class TensorCoreKernel : public IKernel {
 public:
  std::vector<ParamDecl> params() const override;  // the mapping's tile keys
  KernelMapping mapping(const GemmOp& op, const KernelEnv& env) const override;
  std::vector<KernelMapping> ranked_mappings(const GemmOp& op, const KernelEnv& env,
                                             int n) const override;
  // How the chooser scores this kernel's candidate tiles for `kp` (the kernel's problem):
  // the multistage GEMM's estimate with split-K by default (none for a causal op: the
  // reduction would sum partials of tiles its mask leaves empty).
  virtual TileCost tile_cost(const GemmOp& kp, const ChooserHardware& /*hw*/) const {
    TileCost c;
    c.split_k = kp.causal == Causal::None;
    return c;
  }
  Occupancy occupancy(const GemmOp& op, const KernelMapping& map,
                      const KernelEnv& env) const override;
  // The chooser's estimate of the tile (tile_cost, else the multistage GEMM's).
  double estimate_cycles(const GemmOp& op, const KernelMapping& map,
                         const KernelEnv& env) const override;

 protected:
  // Empty when this GPU's tensor cores run the op's instruction, else why not.
  static std::string unsupported_instruction(const GemmOp& op, const KernelEnv& env);
  // A mapping and occupancy chosen, no launch yet.
  KernelPlan start_plan(const GemmOp& op, const KernelEnv& env) const;
  // A (values of the dense-sized weight, compressed when N:M), its metadata (N:M only,
  // padded to whole tiles as it is stored tile by tile), B, D and the split-K workspace,
  // allocated in that order; a present `activation` is allocated as its NHWC tensor.
  static TensorAddresses allocate_operands(const GemmOp& op, const KernelMapping& map,
                                           const Allocate& allocate,
                                           const ConvActivation& activation = {});
  // Bytes from one batch's operands to the next's, as allocate_operands lays them out.
  static void set_batch_strides(GemmTensors& k);
  // A launch of type L (a KernelLaunch that is also GemmTensors) over the op's dense or
  // N:M operands, allocated and strided; a convolution's activation operand is read from
  // its NHWC input (implicit GEMM, conv_activation.h).
  template <class L>
  static std::unique_ptr<L> operand_launch(const GemmOp& op, const KernelMapping& map,
                                           const Allocate& allocate) {
    auto k = std::make_unique<L>();
    const ConvActivation activation = conv_activation(op);
    static_cast<GemmTensors&>(*k) =
        GemmTensors(op, map, allocate_operands(op, map, allocate, activation));
    k->activation = activation;
    set_batch_strides(*k);
    return k;
  }
};

}  // namespace stcsim
