// `stcsim run`: simulate GEMMs on a preset or a described design.
#include <unistd.h>

#include <cmath>
#include <iostream>
#include <sstream>

#include "models/common/dtype.h"
#include "models/sm/block_map_gen.h"
#include "sim/cli/commands.h"
#include "sim/cli/option_values.h"
#include "sim/cli/output_paths.h"
#include "sim/cli/run_admission.h"
#include "sim/config/config.h"
#include "sim/core/atomic_write.h"
#include "sim/core/input_error.h"
#include "sim/core/memory_limit.h"
#include "sim/core/number_syntax.h"
#include "sim/driver/gemm_list.h"
#include "sim/driver/ops_csv.h"
#include "sim/driver/report.h"
#include "sim/driver/run_driver.h"
#include "sim/driver/stats_json.h"
#include "sim/driver/workload_ops.h"
#include "sim/sweep/progress_line.h"

namespace stcsim {

namespace {
struct RunOptions {
  std::string arch = "a100";
  std::vector<std::string> gemms;
  std::string trace;
  std::string model;
  std::vector<std::string> prune;
  std::string batch, seq;  // numbers, read by option_values.h
  std::string dtype = "fp16";
  std::string sparsity = "dense";
  std::vector<std::string> overrides;
  std::string out;
  std::string vcd;
  std::vector<std::string> vcd_signals;
  bool quiet = false;
  bool progress = false;
  bool no_dense_baseline = false;
  bool no_memo = false;
  bool functional = false;
  std::string seed = "1";
  std::string block, block_dist = "uniform";
  std::string block_min_per_row = "0";
  std::string unstructured;
  std::string unstructured_kernel = "csr";
  std::string block_seed = "1";
  std::string max_memory;
  std::string l2 = "flush";
  std::string exclude, min_density;
  std::string weight_layout = "out_in";
  std::string mode = "cycle";
  bool steady_state = false;
};

// "RxC@S": block rows x block columns at sparsity S (fraction of blocks pruned).
struct BlockArg {
  int r = 0, c = 0;
  double sparsity = 0;
};
BlockArg parse_block_arg(const std::string& text) {
  BlockArg b;
  char x = 0, at = 0;
  std::istringstream in(text);
  std::string s;
  if (!(in >> b.r >> x >> b.c >> at >> s) || (x != 'x' && x != 'X') || at != '@' ||
      in.peek() != EOF)
    throw InputError("--block: expected RxC@S (e.g. 32x32@0.75), got '" + text + "'");
  double v = 0;
  if (!parse_decimal_double(s, v).empty())
    throw InputError("--block: sparsity S must be a decimal number in [0, 1], got '" + text + "'");
  b.sparsity = v;
  if (b.r < 1 || b.c < 1 || b.r > 64 || b.c > 64)
    throw InputError("--block: block sizes run from 1x1 to 64x64, got '" + text + "'");
  if (!(b.sparsity >= 0 && b.sparsity <= 1))
    throw InputError("--block: sparsity must be in [0, 1], got '" + text + "'");
  return b;
}
// "csr" -> 0; "tc:V" -> V (1..64).
int parse_unstructured_kernel(const std::string& kern) {
  if (kern == "csr") return 0;
  int v = 0;
  if (kern.rfind("tc:", 0) == 0) {
    std::istringstream in(kern.substr(3));
    if (in >> v && in.peek() == EOF && v >= 1 && v <= 64) return v;
  }
  throw InputError(
      "--unstructured-kernel: expected csr or tc:V with V in 1..64 (e.g. tc:16), got '" + kern +
      "'");
}

// A synthetic map keeps (1 - S) of its R x C blocks, 4 bytes each: admitted before it is made.
void admit_block_map(const GemmOp& op, int r, int c, double sparsity, const std::string& option) {
  const double rows = std::ceil(double(op.batch) * double(op.n) / r),
               cols = std::ceil(double(op.k) / c);
  const double bytes = 4 * (rows + 1) + 4 * (1 - sparsity) * rows * cols;
  if (bytes > double(max_memory_bytes()))
    admit_memory(bytes < 1.8e19 ? std::uint64_t(bytes) : std::uint64_t(1.8e19),
                 option + ": the block map of op '" + op.name + "' (" +
                     std::to_string(std::int64_t(rows)) + " x " +
                     std::to_string(std::int64_t(cols)) + " blocks)");
}
}  // namespace

Command add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  auto* sub = app.add_subcommand(
      "run",
      "Simulate GEMMs cycle by cycle and print a report. With neither --gemm nor --trace, runs "
      "the default set (a BERT-base layer at 4096 tokens and a 4096^3 GEMM).");
  sub->add_option("--arch", o->arch, "preset name (see `stcsim presets`) or a YAML file")
      ->capture_default_str();
  sub->add_option("--gemm", o->gemms, "a GEMM as MxNxK (D[M,N] = A[M,K] B[N,K]^T); repeatable");
  sub->add_option(
      "--trace", o->trace,
      "a trace file: v1 as `stcsim trace` writes it (workloads/README.md), or the minimal "
      "format 0 ('stcsim-trace 0', then MxNxK [dtype] [name] per line)");
  sub->add_option("--model", o->model,
                  "a model (`stcsim models`) or checkpoint path, lowered to its GEMMs");
  sub->add_option("--prune", o->prune,
                  "with --model: one or more pruning specs run side by side (dense, 2:4, "
                  "block:32x32@0.75, ...)")
      ->delimiter(',');
  sub->add_option("--weight-layout", o->weight_layout,
                  "with --model FILE (a weight file without a graph): how its 2-D tensors store "
                  "a Linear layer, out_in (PyTorch) or in_out (Paddle's nn.Linear, Keras' Dense)")
      ->capture_default_str();
  sub->add_option("--exclude", o->exclude,
                  "with --model: layers whose name this regular expression finds (ECMAScript, "
                  "anywhere in the name; anchor with ^...$) stay dense; listed after the report");
  sub->add_option(
      "--min-density", o->min_density,
      "with --model: each pruned layer keeps at least this fraction of its weights (0..1): "
      "block pruning gives back its best blocks, an N:M pattern keeping less is not applied. "
      "Without it block pruning still never removes a layer's last block");
  sub->add_option("--batch", o->batch, "with --model: samples (default 1)");
  sub->add_option("--seq,--tokens", o->seq,
                  "with --model: tokens per sample of its sequence (Linear) layers, M = batch x "
                  "tokens (default: the model's; 128 for a checkpoint)");
  sub->add_option("--dtype", o->dtype, "input dtype: " + dtype_names())->capture_default_str();
  sub->add_option("--sparsity", o->sparsity,
                  "N:M pruning of the weight operand (B = W of y = x W^T), run on mma.sp; each "
                  "GEMM is also run dense to report the speedup")
      ->capture_default_str();
  sub->add_option("-p,--param", o->overrides,
                  "override a parameter: section.key=value (repeatable)");
  sub->add_option("--out", o->out, "directory for stats.json");
  sub->add_option("--vcd", o->vcd,
                  "write a VCD waveform of chosen signals to this file (.vcd added when missing)");
  sub->add_option("--vcd-signals", o->vcd_signals, "signals for --vcd (default all)")
      ->delimiter(',');
  sub->add_flag("-q,--quiet", o->quiet,
                "do not print the report nor (without --progress) the progress line");
  sub->add_flag("--progress", o->progress,
                "show GEMMs done and time left on stderr from the first GEMM (by default: "
                "on a terminal after 1 s, in a log after 30 s)");
  sub->add_flag(
      "--functional", o->functional,
      "also compute every output value with the GPU's numerics preset (tensor_core.numerics) "
      "following the kernel's instruction order; writes opN_{x,w,y}.npy to --out");
  sub->add_option("--seed", o->seed, "seed of the operand values in --functional mode")
      ->capture_default_str();
  sub->add_option("--mode", o->mode,
                  "cycle (simulate every op), steady (simulate each op until its CTA dispatches "
                  "repeat with a period of whole waves, then extrapolate the periods left; ops "
                  "that do not settle are simulated in full, stats say which) or analytic (each "
                  "op's cycles from its kernel's closed-form estimate, the one its mapping is "
                  "chosen by: microseconds per op, for screening; docs/notes.md reports its "
                  "error against cycle mode)")
      ->capture_default_str();
  sub->add_flag("--steady-state", o->steady_state, "the same as --mode steady");
  sub->add_flag("--no-memo", o->no_memo,
                "simulate every GEMM, also one identical to a GEMM already simulated in this run "
                "(by default its result is reused and marked memoized)");
  sub->add_option("--l2", o->l2,
                  "the L2 between GEMMs: flush (emptied before each GEMM, its write-backs charged "
                  "to none, as the validation harness measures), warm (contents carry over) or "
                  "repeat (each GEMM flushed, run once untimed, then timed at the same "
                  "addresses: a benchmark loop's back-to-back calls)")
      ->capture_default_str();
  sub->add_flag("--no-dense-baseline", o->no_dense_baseline,
                "with --sparsity: do not also simulate each GEMM dense (no speedup reported)");
  sub->add_option("--block", o->block,
                  "with --gemm (or the default set): prune the weights in RxC blocks to sparsity S "
                  "(RxC@S, e.g. 32x32@0.75) from a synthetic map, run on the block-skipping kernel "
                  "(docs/block_sparse.md); combine with --sparsity 2:4 for 2:4 inside kept blocks");
  sub->add_option("--block-dist", o->block_dist,
                  "with --block: uniform|skewed (Zipf-like over block rows)")
      ->capture_default_str();
  sub->add_option("--block-min-per-row", o->block_min_per_row,
                  "with --block: every block row keeps at least this many blocks (a pruning "
                  "with a floor; the validation harness keeps one)")
      ->capture_default_str();
  sub->add_option("--block-seed", o->block_seed,
                  "with --block or --unstructured: seed of the synthetic map")
      ->capture_default_str();
  sub->add_option(
      "--unstructured", o->unstructured,
      "with --gemm (or the default set): prune single weights to sparsity S (0..1) from a "
      "synthetic mask (--block-dist spreads nonzeros over rows) and run it on "
      "--unstructured-kernel");
  sub->add_option(
         "--unstructured-kernel", o->unstructured_kernel,
         "for unstructured weights (--unstructured, or a trace/model pruned block:1x1@S): "
         "csr (row-split CSR SpMM on the CUDA cores) or tc:V (the tensor-core block kernel "
         "over the Vx1 column vectors covering the nonzeros, V 1..64, e.g. tc:16)")
      ->capture_default_str();
  sub->add_option(
      "--max-memory", o->max_memory,
      "refuse a run whose estimated memory (CTAs, block maps, --functional operands, input "
      "files) exceeds this many bytes, with K/M/G/T suffixes (default 8G)");
  sub->get_option("--gemm")->excludes(sub->get_option("--trace"));
  sub->get_option("--block")
      ->excludes(sub->get_option("--trace"))
      ->excludes(sub->get_option("--model"));
  sub->get_option("--unstructured")
      ->excludes(sub->get_option("--trace"))
      ->excludes(sub->get_option("--model"))
      ->excludes(sub->get_option("--block"));
  sub->get_option("--exclude")->needs(sub->get_option("--model"));
  sub->get_option("--weight-layout")->needs(sub->get_option("--model"));
  sub->get_option("--min-density")->needs(sub->get_option("--model"));
  sub->get_option("--model")
      ->excludes(sub->get_option("--trace"))
      ->excludes(sub->get_option("--gemm"));
  return [o, sub] {
    // Every option is read and checked, and outputs proven writable, before any work.
    const auto given = [&](const char* name) { return sub->count(name) > 0; };
    if (given("--max-memory")) max_memory_bytes() = memory_option("--max-memory", o->max_memory);
    const std::int64_t batch = given("--batch") ? int_option("--batch", o->batch, 1, 1 << 20) : 0;
    const std::int64_t seq = given("--seq") ? int_option("--seq", o->seq, 1, 1 << 24) : 0;
    const std::uint64_t seed = std::uint64_t(int_option("--seed", o->seed, 0, kMaxSeed));
    const L2Policy l2 = l2_policy_option("--l2", o->l2);
    const std::uint64_t block_seed =
        std::uint64_t(int_option("--block-seed", o->block_seed, 0, kMaxSeed));
    const int block_floor =
        int(int_option("--block-min-per-row", o->block_min_per_row, 0, 1 << 20));
    const double unstructured =
        given("--unstructured") ? fraction_option("--unstructured", o->unstructured) : -1;
    if (given("--out")) check_output_dir("--out", o->out);
    if (given("--vcd")) {
      check_output_file("--vcd", o->vcd);
      const std::string file = vcd_file_name(o->vcd);
      std::error_code ec;
      if (std::filesystem::is_directory(file, ec))
        throw InputError("--vcd " + o->vcd + ": " + file + " is a directory, expected a file name");
    }
    RunRequest req;
    req.config = load_arch(o->arch);
    for (const auto& p : o->overrides) apply_override(req.config, p);
    const Dtype dt = parse_dtype(o->dtype);
    std::vector<std::string> variants;
    if (!o->model.empty()) {
      const workloads::Model model =
          load_any_model(o->model, parse_weight_layout(o->weight_layout));
      for (const auto& note : model.notes)
        std::cerr << "stcsim: note: " << model.name << ": " << note << "\n";
      ModelRunOptions mo;
      mo.lowering = default_lowering(o->model);
      if (batch > 0) mo.lowering.batch = batch;
      if (seq > 0) mo.lowering.seq_len = seq;
      mo.dtype = dt;
      if (given("--exclude")) mo.prune.exclude_regex = regex_option("--exclude", o->exclude);
      if (given("--min-density"))
        mo.prune.min_density = fraction_option("--min-density", o->min_density);
      mo.synthetic_seed = block_seed;
      if (!o->quiet) print_tokens_line(model, mo.lowering);
      variants = o->prune.empty() ? std::vector<std::string>{"dense"} : o->prune;
      for (const auto& v : variants) {
        auto ops = model_ops(model, v, mo, v + "/");
        for (auto& op : ops) op.variant = v;
        req.ops.insert(req.ops.end(), ops.begin(), ops.end());
      }
    } else if (!o->trace.empty()) {
      req.ops = read_any_trace(o->trace, dt);
    } else if (!o->gemms.empty()) {
      for (const auto& g : o->gemms) req.ops.push_back(parse_gemm(g, dt, "--gemm"));
    } else {
      req.ops = default_gemms(dt);
    }
    const NmSparsity sp = parse_sparsity(o->sparsity);
    for (auto& op : req.ops)
      if (op.sparsity.dense() && !op.activation_b) op.sparsity = sp;
    admit_run(req.config, req.ops, o->functional);  // before any synthetic map is made
    if (!o->block.empty()) {
      const BlockArg b = parse_block_arg(o->block);
      const BlockDist dist = parse_block_dist(o->block_dist);
      for (auto& op : req.ops) {
        admit_block_map(op, b.r, b.c, b.sparsity, "--block " + o->block);
        op.block_map =
            std::make_shared<BlockMap>(make_block_map(std::int64_t(op.batch) * op.n, op.k, b.r, b.c,
                                                      b.sparsity, dist, block_seed, block_floor));
        op.weight_pattern = "block:" + std::to_string(b.r) + "x" + std::to_string(b.c);
      }
    }
    if (unstructured >= 0) {
      const BlockDist dist = parse_block_dist(o->block_dist);
      for (auto& op : req.ops) {
        if (!op.sparsity.dense())
          throw InputError("--unstructured cannot be combined with --sparsity " +
                           op.sparsity.str());
        admit_block_map(op, 1, 1, unstructured, "--unstructured " + o->unstructured);
        op.block_map = std::make_shared<BlockMap>(make_block_map(
            std::int64_t(op.batch) * op.n, op.k, 1, 1, unstructured, dist, block_seed));
        std::ostringstream label;
        label << "unstructured@" << unstructured;
        op.weight_pattern = label.str();
      }
    }
    // With --unstructured or --unstructured-kernel, unstructured (1x1) maps (synthetic, or
    // from a trace or model pruned block:1x1) run on the chosen kernel; otherwise a 1x1
    // map stays on the tensor-core block kernel. An explicit --unstructured-kernel with
    // no such map is an error.
    const bool choose = unstructured >= 0 || sub->count("--unstructured-kernel") > 0;
    const int vec = parse_unstructured_kernel(o->unstructured_kernel);
    int on_kernel = 0;
    for (auto& op : req.ops) {
      if (!choose) break;
      if (!op.block_map || op.block_map->r != 1 || op.block_map->c != 1 || !op.sparsity.dense())
        continue;
      ++on_kernel;
      if (vec > 0) {
        op.value_mask = op.block_map;
        op.block_map = std::make_shared<BlockMap>(cover_block_map(*op.block_map, vec, 1));
        op.weight_pattern += " as " + std::to_string(vec) + "x1 vectors";
      }
    }
    // The CSR kernel is the mapping's choice for unstructured weights, not the op's.
    if (on_kernel > 0 && vec == 0)
      apply_override(req.config, "mapping.unstructured_kernel=csr_spmm");
    if (on_kernel == 0 && sub->count("--unstructured-kernel"))
      throw InputError(
          "--unstructured-kernel: no GEMM has unstructured weights (use --unstructured S, or a "
          "trace or --prune block:1x1@S)");
    // Ops that no --prune spec or trace's prune line labelled belong to the variant the
    // run's own pruning options make, or without any, to their own pattern (a trace's
    // per-op labels).
    std::string run_variant = sp.dense() ? "" : sp.str();
    if (!o->block.empty())
      run_variant = "block:" + o->block + (sp.dense() ? "" : "+" + sp.str());
    else if (unstructured >= 0)
      run_variant = "unstructured@" + o->unstructured;
    for (auto& op : req.ops)
      if (op.variant.empty()) op.variant = run_variant.empty() ? op.pattern() : run_variant;
    req.compare_dense = !o->no_dense_baseline;
    req.memoize = !o->no_memo;
    if (o->mode != "cycle" && o->mode != "steady" && o->mode != "analytic")
      throw InputError("--mode: expected cycle, steady or analytic, got '" + o->mode + "'");
    if (o->steady_state && o->mode == "analytic")
      throw InputError("--steady-state is --mode steady: it cannot go with --mode analytic");
    req.analytic = o->mode == "analytic";
    req.steady_state = o->steady_state || o->mode == "steady";
    if (req.analytic && o->functional)
      throw InputError("--mode analytic computes no values: --functional needs --mode cycle");
    req.l2 = l2;
    req.functional = o->functional;
    req.seed = seed;
    req.out_dir = o->out;
    req.vcd_path = o->vcd;
    req.vcd_signals = o->vcd_signals;
    admit_run(req.config, req.ops, req.functional);
    // A model or trace can take minutes: GEMMs done and time left on stderr, on a terminal
    // after 1 s and in a log after 30 s (--progress: from the first GEMM), so a quick run
    // prints nothing; -q silences it.
    const bool tty = isatty(2);
    const double silent = o->progress ? 0.0 : tty ? 1.0 : 30.0;
    sweep::ProgressLine progress(std::cerr, tty, 0, 0, 0, {"GEMMs", false, silent});
    if (!o->quiet || o->progress)
      req.on_op_done = [&progress](std::size_t done, std::size_t total) {
        progress.set_total(std::int64_t(total));
        progress.update(std::int64_t(done), 0, 0);
        if (done == total) progress.finish(std::int64_t(done), 0);
      };
    // The run's files (.npy of functional mode, stats.json) replace the previous run's as
    // one set, after all of them are written.
    StagedFiles outputs;
    req.staged = &outputs;
    const RunResult res = run_simulation(req);
    if (!o->quiet)
      std::cout << format_report(req, res) << format_variants(variants, res)
                << format_pruning_notes(res);
    if (!o->out.empty()) {
      // Names the readers did not vet (an ONNX tensor's bytes) must not lose the results:
      // bytes that are not UTF-8 are written as U+FFFD instead of failing the dump.
      const nlohmann::json stats = stats_json(req, res);
      const std::string text = stats.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
      outputs.write(o->out + "/ops.csv", ops_csv(stats));
      outputs.write(o->out + "/stats.json", text + "\n");
    }
    outputs.commit();
    if (!o->out.empty() && !o->quiet) std::cout << "Wrote " << o->out << "/stats.json\n";
    return 0;
  };
}

}  // namespace stcsim
