#include "models/kernels/tensor_core_kernel.h"

#include "sim/core/input_error.h"

namespace stcsim {

std::vector<ParamDecl> TensorCoreKernel::params() const {
  std::vector<ParamDecl> out;
  for (auto& d : MappingRequest::params())
    if (d.key != "kernel" && d.key != "unstructured_kernel" && d.key != "schedule" &&
        d.key != "cluster_m" && d.key != "cluster_n")
      out.push_back(std::move(d));
  return out;
}

KernelMapping TensorCoreKernel::mapping(const GemmOp& op, const KernelEnv& env) const {
  if (env.request.policy == "cutlass_sm90") {
    // CUTLASS's sm90 list is warp-specialized wgmma/TMA kernels, which only
    // warp_specialized_gemm runs; say why this GEMM came to an mma.sync kernel instead.
    const bool wgmma = env.tc.supports(MmaKind{op.dtype, op.sparsity, 64});
    const std::string why =
        !env.tma.present() ? "it has no TMA unit (tma.impl none): not an sm90 GPU"
        : !wgmma           ? "its tensor cores have no wgmma for " + op.kind().str()
                           : "a block map, a warp tile, split-K or mapping.kernel asks for it";
    const std::string gpu = env.gpu_name.empty() ? "this GPU" : "preset '" + env.gpu_name + "'";
    throw InputError(op.name +
                     ": mapping.policy cutlass_sm90 picks among CUTLASS's sm90 warp-specialized "
                     "(wgmma + TMA) kernels, but " +
                     gpu + " runs this GEMM with " + name() + " (" + why +
                     "); use mapping.policy chooser or cutlass_sm80");
  }
  const GemmOp kp = kernel_problem(op);
  const ChooserHardware hw = env.chooser(op.kind());
  return choose_mapping(kp, hw, env.request, tile_cost(kp, hw));
}

std::vector<KernelMapping> TensorCoreKernel::ranked_mappings(const GemmOp& op, const KernelEnv& env,
                                                             int n) const {
  const GemmOp kp = kernel_problem(op);
  const ChooserHardware hw = env.chooser(op.kind());
  return rank_mappings(kp, hw, env.request, tile_cost(kp, hw), n);
}

double TensorCoreKernel::estimate_cycles(const GemmOp& op, const KernelMapping& map,
                                         const KernelEnv& env) const {
  const GemmOp kp = kernel_problem(op);
  const ChooserHardware hw = env.chooser(op.kind());
  const TileCost cost = tile_cost(kp, hw);
  return cost.cycles ? cost.cycles(map) : stcsim::estimate_cycles(kp, hw, map);
}

Occupancy TensorCoreKernel::occupancy(const GemmOp& op, const KernelMapping& map,
                                      const KernelEnv& env) const {
  return stcsim::occupancy(map, env.sm, op.kind());
}

std::string TensorCoreKernel::unsupported_instruction(const GemmOp& op, const KernelEnv& env) {
  return env.tc.supports(op.kind())
             ? ""
             : "this GPU's tensor cores have " + env.tc.unsupported_reason(op.kind());
}

KernelPlan TensorCoreKernel::start_plan(const GemmOp& op, const KernelEnv& env) const {
  KernelPlan p;
  p.map = mapping(op, env);
  p.occupancy = occupancy(op, p.map, env);
  return p;
}

TensorAddresses TensorCoreKernel::allocate_operands(const GemmOp& op, const KernelMapping& map,
                                                    const Allocate& allocate,
                                                    const ConvActivation& activation) {
  const MmaKind kind = op.kind();
  const GemmOp kp = kernel_problem(op);
  const double nb = op.batch;
  // A convolution's activation operand is its NHWC input, every group in one tensor.
  const bool act_is_a = activation.present() && !weight_is_kernel_a(op);
  const bool act_is_b = activation.present() && weight_is_kernel_a(op);
  TensorAddresses addr;
  addr.a = allocate(act_is_a ? activation.tensor_bytes() : nb * kp.m * kp.k * kind.a_bytes_per_k());
  addr.meta =
      kind.sparsity.dense()
          ? 0
          : allocate(nb * (kp.m + map.cta_m) * (kp.k + map.cta_k) * kind.meta_bytes_per_k());
  addr.b =
      allocate(act_is_b ? activation.tensor_bytes() : nb * kp.n * kp.k * input_bytes(op.dtype));
  addr.c = allocate(nb * op.m * op.n * output_bytes(op.dtype));
  addr.workspace = map.split_k > 1 ? allocate(nb * 4.0 * map.split_k * op.m * op.n) : 0;
  return addr;
}

void TensorCoreKernel::set_batch_strides(GemmTensors& k) {
  const GemmOp& kp = k.op;
  const KernelMapping& map = k.map;
  const std::int64_t tiles_m = (kp.m + map.cta_m - 1) / map.cta_m;
  const std::int64_t ktiles = (kp.k + map.cta_k - 1) / map.cta_k;
  k.a_stride = std::uint64_t(double(kp.m) * kp.k * k.mma.a_bytes_per_k());
  k.meta_stride =
      std::uint64_t(double(tiles_m) * ktiles * map.cta_m * map.cta_k * k.mma.meta_bytes_per_k());
  k.b_stride = std::uint64_t(kp.n * kp.k * input_bytes(kp.dtype));
  k.c_stride = std::uint64_t(kp.m * kp.n * output_bytes(kp.dtype));
  k.workspace_stride = std::uint64_t(4 * map.split_k * kp.m * kp.n);
  if (k.activation.present()) {
    // The next group's channels, in the same pixels.
    const auto group = std::uint64_t(k.activation.group_channels * k.activation.element_bytes);
    (k.transposed_output ? k.b_stride : k.a_stride) = group;
  }
}

}  // namespace stcsim
