"""Simulations: GEMMs, models and traces, each one `stcsim run` in a child (cli.py says
why). Arguments are handed to the command line as they are and checked there, so every
error is the CLI's own; keyword options become its flags (l2="warm" -> --l2 warm,
no_memo=True -> --no-memo, exclude="^conv" -> --exclude ^conv)."""

import json
import os
import tempfile

from .cli import command_line, run_cli
from .result import Result


def _flag_args(options):
    args = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif value is False or value is None:
            continue
        elif isinstance(value, (list, tuple)):
            args += [flag, ",".join(map(str, value))]
        else:
            args += [flag, str(value)]
    return args


def pattern_args(pattern):
    """The `stcsim run` flags of a weight pattern: "dense", "N:M" (mma.sp),
    "block:RxC@S" (block-sparse kernel), "block:RxC@S+N:M", "unstructured@S" (CSR SpMM).
    The values are checked by the CLI; an unknown form goes to --sparsity, which names
    the patterns it takes."""
    if pattern == "dense":
        return []
    if pattern.startswith("block:"):
        block, _, nm = pattern[len("block:"):].partition("+")
        return ["--block", block] + (["--sparsity", nm] if nm else [])
    if pattern.startswith("unstructured@"):
        return ["--unstructured", pattern[len("unstructured@"):]]
    return ["--sparsity", pattern]


def _gemm_text(gemm):
    if isinstance(gemm, str):
        return gemm
    m, n, k = gemm
    return f"{m}x{n}x{k}"


def run(config, args, out=None):
    """`stcsim run` with config's --arch and -p flags and any further arguments;
    stats.json goes to `out` when given (kept), else to a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="stcsim-run-") as tmp:
        out_dir = os.fspath(out) if out is not None else tmp
        argv = ["run", *config.cli_args(), *map(str, args), "--out", out_dir, "-q"]
        run_cli(argv)
        with open(os.path.join(out_dir, "stats.json"), encoding="utf-8") as f:
            stats = json.load(f)
    shown = argv[:-4] + (["--out", out_dir] if out is not None else [])
    return Result(stats, command_line(shown))


def run_gemms(config, gemms, dtype="fp16", pattern="dense", out=None, **options):
    """Several GEMMs in one run: "MxNxK" strings or (m, n, k) tuples."""
    args = []
    for g in gemms:
        args += ["--gemm", _gemm_text(g)]
    args += ["--dtype", dtype, *pattern_args(pattern), *_flag_args(options)]
    return run(config, args, out)


def run_gemm(config, m, n, k, dtype="fp16", pattern="dense", out=None, **options):
    """One GEMM D[M,N] = A[M,K] B[N,K]^T (y = x W^T: M tokens, N out, K in features).
    A sparse pattern also runs the GEMM dense (speedup_vs_dense) unless
    no_dense_baseline=True."""
    return run_gemms(config, [(m, n, k)], dtype, pattern, out, **options)


def run_model(config, model, batch=None, seq=None, prune=("dense",), dtype="fp16", out=None,
              **options):
    """A model (`stcsim models`, or a checkpoint path) lowered to its GEMMs, once per
    pruning spec in `prune` ("dense", "2:4", "block:32x32@0.5", ...), side by side."""
    prune = [prune] if isinstance(prune, str) else list(prune)
    args = ["--model", model, "--prune", ",".join(prune), "--dtype", dtype]
    args += _flag_args({"batch": batch, "seq": seq, **options})
    return run(config, args, out)


def run_trace(config, path, dtype="fp16", out=None, **options):
    """The GEMMs of a trace file (v1 from `stcsim trace`, or format 0)."""
    args = ["--trace", os.fspath(path), "--dtype", dtype, *_flag_args(options)]
    return run(config, args, out)
