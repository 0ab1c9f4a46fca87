// The power model's stats (models/power, filled in Gpu::collect), declared once
// (sim/core/stat.h). Written only when the GPU has a power model (power.impl other than
// `none`): then power.clock_mhz is positive, for an op and for the total alike.
#include "models/kernels/op_result.h"

namespace stcsim {

namespace {

constexpr const char* kPower = "power model (models/power)";

bool modelled(const OpResult& r) { return r.power.clock_mhz > 0; }

const OpStat energy_joules{
    {"energy.joules", "J", "the op's energy at the settled clock: the sum of the parts below",
     StatTotal::kSum, kPower},
    counter<OpResult>([](auto& r) -> auto& { return r.power.joules; }),
    modelled};
const OpStat energy_tensor{
    {"energy.tensor", "J",
     "tensor-core products the pipes executed x the dtype's energy per product, at the settled "
     "voltage",
     StatTotal::kSum, kPower},
    counter<OpResult>([](auto& r) -> auto& { return r.power.tensor_joules; }),
    modelled};
const OpStat energy_sparse_select{
    {"energy.sparse_select", "J",
     "mma.sp only: metadata decode and operand selection, per real product", StatTotal::kSum,
     kPower},
    counter<OpResult>([](auto& r) -> auto& { return r.power.sparse_select_joules; }),
    modelled};
const OpStat energy_cuda{
    {"energy.cuda_cores", "J", "FMAs on the CUDA cores (the CSR kernel)", StatTotal::kSum, kPower},
    counter<OpResult>([](auto& r) -> auto& { return r.power.cuda_joules; }),
    modelled};
const OpStat energy_smem{
    {"energy.smem", "J", "bytes through the shared-memory port (its busy cycles x bytes per cycle)",
     StatTotal::kSum, kPower},
    counter<OpResult>([](auto& r) -> auto& { return r.power.smem_joules; }),
    modelled};
const OpStat energy_l2{{"energy.l2", "J", "L2 sectors read and written", StatTotal::kSum, kPower},
                       counter<OpResult>([](auto& r) -> auto& { return r.power.l2_joules; }),
                       modelled};
const OpStat energy_dram{
    {"energy.dram", "J", "DRAM reads and write-backs (the memory's own supply, not scaled)",
     StatTotal::kSum, kPower},
    counter<OpResult>([](auto& r) -> auto& { return r.power.dram_joules; }),
    modelled};
const OpStat energy_static{
    {"energy.static", "J", "static (leakage and idle) power x seconds at the settled clock",
     StatTotal::kSum, kPower},
    counter<OpResult>([](auto& r) -> auto& { return r.power.static_joules; }),
    modelled};
const OpStat power_watts{
    {"power.watts", "W", "average power: energy.joules / seconds", StatTotal::kRecomputed, kPower},
    computed<OpResult>(
        [](const OpResult& r) { return r.seconds > 0 ? r.power.joules / r.seconds : 0.0; }),
    modelled};
const OpStat power_clock{
    {"power.clock_mhz", "MHz",
     "the SM clock the power controller settles at (gpu.clock_mhz unless the limit lowers it); "
     "the total: weighted by cycles",
     StatTotal::kWeightedMean, kPower},
    counter<OpResult>([](auto& r) -> auto& { return r.power.clock_mhz; }),
    modelled};
const OpStat power_throttled{
    {"power.throttled", "0/1",
     "1 when the power limit lowered the clock below gpu.clock_mhz; the total: any op",
     StatTotal::kMax, kPower},
    counter<OpResult>([](auto& r) -> auto& { return r.power.throttled; }),
    modelled};
const OpStat power_over_limit{
    {"power.over_limit", "0/1",
     "1 when even power.min_clock_mhz draws more than the limit (the op is reported at that "
     "clock, above the limit); the total: any op",
     StatTotal::kMax, kPower},
    counter<OpResult>([](auto& r) -> auto& { return r.power.over_limit; }),
    modelled};

}  // namespace

}  // namespace stcsim
