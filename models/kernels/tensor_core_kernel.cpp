#include "models/kernels/tensor_core_kernel.h"

namespace stcsim {

std::vector<ParamDecl> TensorCoreKernel::params() const {
  std::vector<ParamDecl> out;
  for (auto& d : MappingRequest::params())
    if (d.key != "kernel" && d.key != "unstructured_kernel") out.push_back(std::move(d));
  return out;
}

KernelMapping TensorCoreKernel::mapping(const GemmOp& op, const KernelEnv& env) const {
  return choose_mapping(kernel_problem(op), env.chooser(op.kind()), env.request);
}

Occupancy TensorCoreKernel::occupancy(const GemmOp& op, const KernelMapping& map, const KernelEnv& env) const {
  return stcsim::occupancy(map, env.sm, op.kind());
}

std::string TensorCoreKernel::unsupported_instruction(const GemmOp& op, const KernelEnv& env) {
  return env.tc.supports(op.kind()) ? "" : "this GPU's tensor cores have " + env.tc.unsupported_reason(op.kind());
}

KernelPlan TensorCoreKernel::start_plan(const GemmOp& op, const KernelEnv& env) const {
  KernelPlan p;
  p.map = mapping(op, env);
  p.occupancy = occupancy(op, p.map, env);
  return p;
}

TensorAddresses TensorCoreKernel::allocate_operands(const GemmOp& op, const KernelMapping& map,
                                                    const Allocate& allocate) {
  const MmaKind kind = op.kind();
  const GemmOp kp = kernel_problem(op);
  const double nb = op.batch;
  TensorAddresses addr;
  addr.a = allocate(nb * kp.m * kp.k * kind.a_bytes_per_k());
  addr.meta =
      kind.sparsity.dense() ? 0 : allocate(nb * (kp.m + map.cta_m) * (kp.k + map.cta_k) * kind.meta_bytes_per_k());
  addr.b = allocate(nb * kp.n * kp.k * input_bytes(op.dtype));
  addr.c = allocate(nb * op.m * op.n * output_bytes(op.dtype));
  addr.workspace = map.split_k > 1 ? allocate(nb * 4.0 * map.split_k * op.m * op.n) : 0;
  return addr;
}

}  // namespace stcsim
