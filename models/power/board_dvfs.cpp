#include "models/power/board_dvfs.h"

#include "sim/core/input_error.h"
#include "sim/core/registry.h"

namespace stcsim {

std::vector<ParamDecl> BoardDvfsSpec::params() {
  const BoardDvfsSpec d;  // defaults: the struct's initialisers (board_dvfs.h)
  const std::optional<double> required;
  return {
      float_param("fp16_pj_per_product", "pJ", required, 0, 1e6,
                  "dynamic energy of one fp16/bf16 tensor-core product (multiply-accumulate) at "
                  "nominal_volts, with its share of the mma's operand and issue energy"),
      float_param("tf32_pj_per_product", "pJ", required, 0, 1e6, "the same for a tf32 product"),
      float_param("int8_pj_per_product", "pJ", required, 0, 1e6, "the same for an int8 product"),
      float_param("fp8_pj_per_product", "pJ", d.fp8_pj_per_product, 0, 1e6,
                  "the same for an fp8 (e4m3 or e5m2) product; 0 on a GPU without fp8 tensor "
                  "cores, where an fp8 op is refused"),
      float_param("sparse_select_pj_per_product", "pJ", required, 0, 1e6,
                  "extra energy of an mma.sp per real product: metadata decode and the selection "
                  "of the B element each kept A element multiplies"),
      float_param("cuda_fma_pj", "pJ", required, 0, 1e6,
                  "one FMA lane-operation on the CUDA cores (the CSR kernel), with its register "
                  "operands and share of instruction issue"),
      float_param("smem_pj_per_byte", "pJ/B", required, 0, 1e6,
                  "one byte through the shared-memory (L1 data) port, counted as the port's busy "
                  "cycles x its bytes per cycle (bank-conflict replays included)"),
      float_param("l2_pj_per_byte", "pJ/B", required, 0, 1e6,
                  "one byte read from or written to the L2 (sectors), with the crossbar to the SM"),
      float_param("dram_pj_per_byte", "pJ/B", required, 0, 1e6,
                  "one byte read from or written to DRAM, on the memory's own supply (not scaled "
                  "by the core voltage)"),
      float_param("static_watts", "W", required, 0, 1e5,
                  "leakage and idle power of the board at nominal_volts; scales with V"),
      float_param("power_limit_watts", "W", required, 1, 1e5,
                  "the board's power limit the controller holds the average power under"),
      float_param("clock_step_mhz", "MHz", d.clock_step_mhz, 1, 1e4,
                  "the SM clock's DVFS step (15 MHz on recent NVIDIA parts)"),
      float_param("min_clock_mhz", "MHz", required, 1, 1e5,
                  "the lowest SM clock the controller may set"),
      float_param("volts_at_min_clock", "V", required, 0.1, 5,
                  "core voltage at min_clock_mhz (the voltage-frequency curve is linear from here "
                  "to volts_at_preset_clock)"),
      float_param("volts_at_preset_clock", "V", required, 0.1, 5, "core voltage at gpu.clock_mhz"),
      float_param("nominal_volts", "V", required, 0.1, 5,
                  "the voltage at which the energies and static_watts are given")};
}

BoardDvfsSpec BoardDvfsSpec::from(const ParamSet& p) {
  BoardDvfsSpec s;
  s.fp16_pj_per_product = p.get_float("fp16_pj_per_product");
  s.tf32_pj_per_product = p.get_float("tf32_pj_per_product");
  s.int8_pj_per_product = p.get_float("int8_pj_per_product");
  s.fp8_pj_per_product = p.get_float("fp8_pj_per_product");
  s.sparse_select_pj_per_product = p.get_float("sparse_select_pj_per_product");
  s.cuda_fma_pj = p.get_float("cuda_fma_pj");
  s.smem_pj_per_byte = p.get_float("smem_pj_per_byte");
  s.l2_pj_per_byte = p.get_float("l2_pj_per_byte");
  s.dram_pj_per_byte = p.get_float("dram_pj_per_byte");
  s.static_watts = p.get_float("static_watts");
  s.power_limit_watts = p.get_float("power_limit_watts");
  s.clock_step_mhz = p.get_float("clock_step_mhz");
  s.min_clock_mhz = p.get_float("min_clock_mhz");
  s.volts_at_min_clock = p.get_float("volts_at_min_clock");
  s.volts_at_preset_clock = p.get_float("volts_at_preset_clock");
  s.nominal_volts = p.get_float("nominal_volts");
  return s;
}

void BoardDvfsSpec::check(double preset_mhz) const {
  const auto num = [](double v) { return format_value(ParamValue(v)); };
  if (min_clock_mhz > preset_mhz)
    throw InputError("power.min_clock_mhz (" + num(min_clock_mhz) +
                     " MHz) is above the preset clock gpu.clock_mhz (" + num(preset_mhz) +
                     " MHz): the power controller only lowers the clock");
  if (volts_at_min_clock > volts_at_preset_clock)
    throw InputError("power.volts_at_min_clock (" + num(volts_at_min_clock) +
                     " V) is above power.volts_at_preset_clock (" + num(volts_at_preset_clock) +
                     " V): the voltage must not fall as the clock rises");
  const double idle_at_min = static_watts * volts_at_min_clock / nominal_volts;
  if (power_limit_watts <= idle_at_min)
    throw InputError("power.power_limit_watts (" + num(power_limit_watts) +
                     " W) is not above the static power at the lowest clock (power.static_watts " +
                     num(static_watts) + " W x volts_at_min_clock / nominal_volts = " +
                     num(idle_at_min) + " W): no clock could meet the limit");
}

BoardDvfs::BoardDvfs(const BoardDvfsSpec& s, double preset_mhz, double measured_mhz)
    : spec_(s), preset_mhz_(preset_mhz), measured_mhz_(measured_mhz) {
  spec_.check(preset_mhz);
}

double BoardDvfs::volts(double f_mhz) const {
  const double span = preset_mhz_ - spec_.min_clock_mhz;
  if (span <= 0) return spec_.volts_at_preset_clock;
  return spec_.volts_at_min_clock + (spec_.volts_at_preset_clock - spec_.volts_at_min_clock) *
                                        (f_mhz - spec_.min_clock_mhz) / span;
}

std::vector<double> BoardDvfs::clocks() const {
  std::vector<double> out;
  const double eps = 1e-9;
  for (int i = 0;; ++i) {
    const double f = preset_mhz_ - i * spec_.clock_step_mhz;
    if (f < spec_.min_clock_mhz - eps) break;
    out.push_back(f);
  }
  if (out.empty() || out.back() > spec_.min_clock_mhz + eps) out.push_back(spec_.min_clock_mhz);
  return out;
}

PowerReport BoardDvfs::at_clock(const PowerActivity& a, double f_mhz) const {
  const double s = volts(f_mhz) / spec_.nominal_volts;
  const double core = s * s * 1e-12;  // pJ at nominal_volts -> J at V(f)
  double per_product = spec_.fp16_pj_per_product;
  if (a.dtype == Dtype::TF32) per_product = spec_.tf32_pj_per_product;
  if (a.dtype == Dtype::INT8) per_product = spec_.int8_pj_per_product;
  if (is_fp8(a.dtype)) {
    if (spec_.fp8_pj_per_product <= 0)
      throw InputError(
          "power.fp8_pj_per_product is 0 (no fp8 energy for this GPU): set it to run fp8 ops");
    per_product = spec_.fp8_pj_per_product;
  }
  PowerReport r;
  r.tensor_joules = a.tensor_products * per_product * core;
  r.sparse_select_joules =
      a.sparse ? a.tensor_products * spec_.sparse_select_pj_per_product * core : 0.0;
  r.cuda_joules = a.cuda_fmas * spec_.cuda_fma_pj * core;
  r.smem_joules = a.smem_bytes * spec_.smem_pj_per_byte * core;
  r.l2_joules = a.l2_bytes * spec_.l2_pj_per_byte * core;
  r.dram_joules = a.dram_bytes * spec_.dram_pj_per_byte * 1e-12;
  const double seconds = a.cycles / (f_mhz * 1e6);
  r.static_joules = spec_.static_watts * s * seconds;
  r.joules = r.tensor_joules + r.sparse_select_joules + r.cuda_joules + r.smem_joules +
             r.l2_joules + r.dram_joules + r.static_joules;
  r.watts = seconds > 0 ? r.joules / seconds : 0.0;
  r.clock_mhz = f_mhz;
  r.throttled = f_mhz < preset_mhz_ ? 1.0 : 0.0;
  return r;
}

PowerReport BoardDvfs::settle(const PowerActivity& a) const {
  if (measured_mhz_ > 0) {
    // The measurement's clock already is the controller's answer: report the op there,
    // flagging a model that would draw more than the limit at it.
    PowerReport r = at_clock(a, measured_mhz_);
    r.over_limit = r.watts > spec_.power_limit_watts * (1 + 1e-12) ? 1 : 0;
    return r;
  }
  const auto fs = clocks();
  for (const double f : fs) {
    PowerReport r = at_clock(a, f);
    if (r.watts <= spec_.power_limit_watts * (1 + 1e-12)) return r;
  }
  PowerReport r = at_clock(a, fs.back());
  r.over_limit = 1;
  return r;
}

static const char* kContract =
    "gives an op's energy by component, its average power and the SM clock the board's power "
    "controller settles at";

static Registrar<IPower> reg_none{
    ComponentInfo{"power",
                  "none",
                  kContract,
                  "no power model: no energy or power stats, the SM runs at gpu.clock_mhz",
                  {},
                  true},
    [](const ParamSet&, const BuildContext&) { return std::make_unique<NoPower>(); }};

static Registrar<IPower> reg_board_dvfs{
    ComponentInfo{"power", "board_dvfs", kContract,
                  "energy per event (tensor-core products by dtype, mma.sp selection, CUDA-core "
                  "FMAs, shared-memory, L2 and DRAM bytes) plus static power; a board power "
                  "limit held by stepping the SM clock down a linear voltage-frequency curve "
                  "(docs/power.md)",
                  BoardDvfsSpec::params(), false},
    [](const ParamSet& p, const BuildContext& ctx) {
      const double preset = ctx.preset_clock_mhz > 0 ? ctx.preset_clock_mhz : ctx.core_clock_mhz;
      return std::make_unique<BoardDvfs>(BoardDvfsSpec::from(p), preset, ctx.measured_clock_mhz);
    }};

}  // namespace stcsim
