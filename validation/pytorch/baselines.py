#!/usr/bin/env python3
"""PyTorch baselines of the validation campaign (issue 19; docs/validation.md).

Runs y = x W^T on the GPU with the image's torch, on the harness's GEMMs
(stcsim_validate_gpu --suite issue7), timed the way the harness times its kernels:
per sample R launches are captured once as a CUDA graph (plain stream launches when
capture fails) and replayed, with the L2 flushed before every launch by a read pass over
twice the L2 (no dirty lines left behind):
    time_us = (t[R x (flush, launch)] - t[R x flush]) / R
plus the warm per-launch time (R back-to-back launches) and one event-timed launch.

Kernels: torch_linear (F.linear, dense fp16), torch_24_cutlass and torch_24_cusparselt
(to_sparse_semi_structured with each backend, W pruned 2:4 by magnitude),
torch_bsr (W as torch.sparse BSR of 32x32 blocks at 50/75/90% block sparsity, F.linear).

Output: one JSON file in the harness's schema (stcsim-measurements/1), written atomically
after every entry from per-entry part files (OUT.parts/), so a run killed at any point
keeps what it finished. Exit status: 0, 1 (a check failed), 2 (usage), 77 (no GPU/torch).

The pure-Python parts (the GEMM list, the entry schema, the part files and their merge)
need no torch; tests/validation/test_pytorch_baselines.py tests them on the CPU.
"""
import argparse
import datetime
import json
import os
import statistics
import sys

SCHEMA = "stcsim-measurements/1"
KERNELS = ("torch_linear", "torch_24_cutlass", "torch_24_cusparselt", "torch_bsr")
BSR_BLOCK = 32
BSR_SPARSITIES = (0.5, 0.75, 0.9)


def issue7_suite():
    """The harness's --suite issue7 (validation/harness/main.cpp), in the same order."""
    gemms = [("square_4096", 4096, 4096, 4096), ("square_8192", 8192, 8192, 8192)]
    layers = (("bert_mlp_up", 3072, 768), ("bert_mlp_down", 768, 3072), ("llama7b_mlp_up", 11008, 4096))
    for m in (128, 512, 2048, 8192):
        for name, n, k in layers:
            gemms.append((f"{name}.m{m}", m, n, k))
    return [{"name": g[0], "m": g[1], "n": g[2], "k": g[3]} for g in gemms]


def parse_gemm(text):
    """'MxNxK' -> a GEMM named by its text."""
    parts = text.lower().split("x")
    if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise ValueError(f"--gemm {text!r}: expected MxNxK with positive integers")
    m, n, k = (int(p) for p in parts)
    return {"name": text, "m": m, "n": n, "k": k}


def select_gemms(gemms, names):
    """The GEMMs named in `names` (a comma list; empty: all), in suite order."""
    wanted = [n for n in names.split(",") if n]
    unknown = [n for n in wanted if n not in {g["name"] for g in gemms}]
    if unknown:
        raise ValueError(f"--only-gemms: not in the list: {unknown}")
    return [g for g in gemms if not wanted or g["name"] in wanted]


def variants(kernels):
    """(kernel, sparsity, family): one family per kernel and sparsity level."""
    out = []
    for kern in kernels:
        if kern == "torch_bsr":
            out += [(kern, s, f"{kern}{round(s * 100)}") for s in BSR_SPARSITIES]
        else:
            out.append((kern, None, kern))
    return out


def summarize(samples):
    s = sorted(samples)
    return {"median": statistics.median(s) if s else 0.0, "min": s[0] if s else 0.0,
            "max": s[-1] if s else 0.0, "mean": statistics.fmean(s) if s else 0.0,
            "runs": len(s), "samples": list(samples)}


def make_entry(gemm, kernel, sparsity, cold_us, timing, check, library):
    """One gemms[] element in the harness's schema (docs/validation.md)."""
    kind = {"torch_linear": "dense", "torch_24_cutlass": "2:4", "torch_24_cusparselt": "2:4",
            "torch_bsr": "bsr"}[kernel]
    e = {"name": gemm["name"], "m": gemm["m"], "n": gemm["n"], "k": gemm["k"], "dtype": "fp16",
         "sparsity": kind, "kernel": kernel, "mapping": None, "library": library,
         "time_us": summarize(cold_us), "timing": timing, "sm_clock_mhz": None, "check": check}
    if kernel == "torch_bsr":
        e["bsr"] = {"block_rows": BSR_BLOCK, "block_cols": BSR_BLOCK, "density": 1 - sparsity,
                    "sparsity": sparsity}
    return e


def write_atomic(path, text):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def part_name(index, family):
    return f"g{index:05d}_{family}.json"


def write_part(parts, index, family, entry=None, skipped=None):
    assert (entry is None) != (skipped is None)
    write_atomic(os.path.join(parts, part_name(index, family)),
                 json.dumps({"gemm_index": index, "kernel": family, "entry": entry, "skipped": skipped}))


def merge(header, parts):
    """The measurement document from the header and every readable part, in file order."""
    doc = dict(header)
    doc["gemms"], doc["skipped"], bad = [], [], []
    for f in sorted(os.listdir(parts)) if os.path.isdir(parts) else []:
        if not (f.startswith("g") and f.endswith(".json")):
            continue
        try:
            with open(os.path.join(parts, f)) as fh:
                p = json.load(fh)
        except ValueError:
            bad.append(f)
            continue
        if p.get("entry"):
            doc["gemms"].append(p["entry"])
        if p.get("skipped"):
            doc["skipped"].append(p["skipped"])
    if bad:
        doc["unreadable_parts"] = bad
    doc["finished_utc"] = utc_now()
    return doc


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def header_for(command, device, settings, gemms):
    return {"schema": SCHEMA, "synthetic": False, "command": command, "created_utc": utc_now(),
            "device": device, "settings": settings,
            "gemm_list": [{k: g[k] for k in ("name", "m", "n", "k")} for g in gemms]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the measurement .json file")
    ap.add_argument("--gemm", action="append", default=[], help="MxNxK (repeatable); default: the issue7 suite")
    ap.add_argument("--only-gemms", default="", help="comma list of suite GEMM names to run (default: all)")
    ap.add_argument("--kernels", default=",".join(KERNELS), help="comma list of " + ",".join(KERNELS))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--sample-us", type=float, default=300.0)
    ap.add_argument("--max-launches", type=int, default=64)
    ap.add_argument("--samples", type=int, default=32, help="rows and columns of y checked")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--family-timeout", type=float, default=120.0,
                    help="seconds one kernel family's child may run before it is killed")
    ap.add_argument("--child-family", help=argparse.SUPPRESS)  # internal: the child's family
    args = ap.parse_args(argv)
    try:
        gemms = select_gemms([parse_gemm(t) for t in args.gemm] or issue7_suite(), args.only_gemms)
        kernels = [k for k in args.kernels.split(",") if k]
        unknown = [k for k in kernels if k not in KERNELS]
        if unknown or args.runs < 1 or args.max_launches < 1 or args.samples < 2:
            raise ValueError(f"unknown kernels {unknown}" if unknown else "--runs, --max-launches >= 1, --samples >= 2")
    except ValueError as e:
        print(f"baselines.py: {e}", file=sys.stderr)
        return 2
    try:
        import torch
    except ImportError as e:
        print(f"skipped: no torch ({e})")
        return 77
    if not torch.cuda.is_available():
        print("skipped: no GPU (torch.cuda.is_available() is False)")
        return 77
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch_measure  # the torch side, only imported where torch is
    return torch_measure.run(args, gemms, kernels, sys.modules[__name__])


if __name__ == "__main__":
    sys.exit(main())
