"""The torch side of baselines.py (imported only where torch and a GPU are): operands,
the four kernels, the L2 flush, graph-replayed timing, the checks, and one child process
per kernel family so that a fault or a hang costs that family only."""
import json
import math
import os
import subprocess
import sys

import torch
import torch.nn.functional as F


def device_info():
    p = torch.cuda.get_device_properties(0)
    return {"name": p.name, "compute_capability": f"{p.major}.{p.minor}",
            "sm_count": p.multi_processor_count, "l2_bytes": int(getattr(p, "L2_cache_size", 0)),
            "global_mem_bytes": int(p.total_memory), "torch": torch.__version__,
            "cuda_runtime": torch.version.cuda,
            "cusparselt": bool(getattr(torch.backends, "cusparselt", None)
                               and torch.backends.cusparselt.is_available())}


def random_fp16(rows, cols, seed):
    """The harness's distribution (operands.h): +-(1 + m/1024) 2^e, e in [-3, 0], never zero
    (the same distribution, not the same bits: the generators differ)."""
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    m = torch.randint(0, 1024, (rows, cols), generator=g, device="cuda", dtype=torch.int32)
    e = torch.randint(-3, 1, (rows, cols), generator=g, device="cuda", dtype=torch.int32)
    s = torch.randint(0, 2, (rows, cols), generator=g, device="cuda", dtype=torch.int32) * 2 - 1
    return (s * (1 + m / 1024.0) * torch.pow(2.0, e.float())).half()


def prune_24(w):
    """Magnitude 2:4 along K: the two largest of every four consecutive weights stay."""
    n, k = w.shape
    g = w.view(n, k // 4, 4)
    keep = g.abs().topk(2, dim=-1).indices
    mask = torch.zeros_like(g, dtype=torch.bool).scatter_(-1, keep, True)
    return (g * mask).view(n, k)


def prune_blocks(w, sparsity, block):
    """Each block row keeps its max(1, round((1 - sparsity) * blocks)) blocks of largest
    Frobenius norm (the harness's prune_blocks rule); the rest become zero."""
    n, k = w.shape
    br, bc = n // block, k // block
    norms = w.float().view(br, block, bc, block).pow(2).sum(dim=(1, 3))
    keep = max(1, round((1 - sparsity) * bc))
    idx = norms.topk(keep, dim=1).indices
    mask = torch.zeros(br, bc, dtype=torch.bool, device=w.device).scatter_(1, idx, True)
    return (w.view(br, block, bc, block) * mask[:, None, :, None]).view(n, k)


def make_kernel(kernel, sparsity, x, w, block):
    """(callable computing y = x W_eff^T, W_eff, library note)."""
    if kernel == "torch_linear":
        return (lambda: F.linear(x, w)), w, "F.linear (cuBLAS through torch)"
    if kernel in ("torch_24_cutlass", "torch_24_cusparselt"):
        from torch.sparse import SparseSemiStructuredTensorCUSPARSELT, SparseSemiStructuredTensorCUTLASS
        w24 = prune_24(w)
        cls = SparseSemiStructuredTensorCUTLASS if kernel == "torch_24_cutlass" else SparseSemiStructuredTensorCUSPARSELT
        ws = cls.from_dense(w24)
        return (lambda: F.linear(x, ws)), w24, f"to_sparse_semi_structured backend {cls.__name__}"
    if kernel == "torch_bsr":
        wb_dense = prune_blocks(w, sparsity, block)
        wb = wb_dense.to_sparse_bsr((block, block))
        return (lambda: F.linear(x, wb)), wb_dense, f"torch.sparse BSR {block}x{block}, F.linear"
    raise ValueError(kernel)


def check(y, x, w_eff, samples):
    m, n = y.shape
    rows = torch.linspace(0, m - 1, min(m, samples), device="cuda").round().long().unique()
    cols = torch.linspace(0, n - 1, min(n, samples), device="cuda").round().long().unique()
    ref = x[rows].double() @ w_eff[cols].double().t()
    got = y[rows][:, cols].double()
    rel = float((got - ref).norm() / ref.norm()) if float(ref.norm()) > 0 else float((got - ref).norm())
    nan = int(torch.isnan(y).sum())
    return {"passed": nan == 0 and rel < 5e-3, "nan_or_unwritten": nan, "cpu_rel_error": rel,
            "reference": "float64 on the GPU over sampled rows and columns"}


class Timer:
    """The harness's method (timing.h) in torch: a read-only L2 flush, R launches per
    sample replayed from a CUDA graph (or the stream when capture fails)."""

    def __init__(self, l2_bytes, settings):
        n = max(2 * l2_bytes, 8 << 20) // 4
        self.buf = torch.ones(n, dtype=torch.float32, device="cuda")
        self.sink = torch.empty((), dtype=torch.float32, device="cuda")
        self.s = settings

    def flush(self):
        # reads 2 x L2; writes 4 bytes. The dim= form: torch 2.11 takes out= only with dim.
        torch.sum(self.buf, dim=0, out=self.sink)

    def elapsed_us(self, body):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        body()
        b.record()
        b.synchronize()
        return a.elapsed_time(b) * 1000.0

    @staticmethod
    def capture(body):
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            body()  # warm-up outside the capture, as torch.cuda.graph requires
        torch.cuda.current_stream().wait_stream(side)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            body()
        return g.replay

    def time(self, fn):
        s = self.s
        fn()
        torch.cuda.synchronize()
        one = min(self.elapsed_us(fn) for _ in range(3))
        r = max(1, min(s.max_launches, math.ceil(s.sample_us / max(one, 1e-3))))

        def cold():
            for _ in range(r):
                self.flush()
                fn()

        def flushes():
            for _ in range(r):
                self.flush()

        def warm():
            for _ in range(r):
                fn()

        try:
            bodies, method = [self.capture(b) for b in (cold, flushes, warm)], "cuda_graph"
        except Exception:  # a library that refuses capture: plain launches
            torch.cuda.synchronize()
            bodies, method = [cold, flushes, warm], "stream"
        for _ in range(s.warmup):
            for b in bodies:
                b()
        c, f, w, single = [], [], [], []
        for _ in range(s.runs):
            tc, tf = self.elapsed_us(bodies[0]), self.elapsed_us(bodies[1])
            c.append((tc - tf) / r)
            f.append(tf / r)
            w.append(self.elapsed_us(bodies[2]) / r)
            self.flush()
            single.append(self.elapsed_us(fn))
        return c, {"method": method, "launches_per_sample": r, "warm_us": w, "flush_us": f,
                   "single_launch_event_us": single}


def run_family(args, gemms, family, kernel, sparsity, base):
    """Child: one family over every GEMM not measured yet; a part per GEMM."""
    parts = args.out + ".parts"
    dev = device_info()
    timer = Timer(dev["l2_bytes"], args)
    failed = False
    for i, g in enumerate(gemms):
        if os.path.exists(os.path.join(parts, base.part_name(i, family))):
            continue
        sys.stderr.write(f"{family} {g['name']} {g['m']}x{g['n']}x{g['k']}\n")
        try:
            x = random_fp16(g["m"], g["k"], args.seed)
            w = random_fp16(g["n"], g["k"], args.seed + 1)
            fn, w_eff, note = make_kernel(kernel, sparsity, x, w, base.BSR_BLOCK)
            y = fn()
            torch.cuda.synchronize()
            chk = check(y, x, w_eff, args.samples)
            cold, timing = timer.time(fn)
            library = {"path": torch.__file__, "note": note, "torch": torch.__version__}
            e = base.make_entry(g, kernel, sparsity, cold, timing, chk, library)
            base.write_part(parts, i, family, entry=e)
            failed |= not chk["passed"]
            sys.stderr.write(f"  {e['time_us']['median']:.2f} us{'' if chk['passed'] else '  CHECK FAILED'}\n")
        except Exception as ex:  # unsupported shape, missing backend, CUDA error
            base.write_part(parts, i, family, skipped={"name": g["name"], "kernel": family,
                                                       "why": f"error: {type(ex).__name__}: {ex}"})
            if isinstance(ex, torch.cuda.OutOfMemoryError) or "CUDA error" in str(ex):
                return 3  # the context may be unusable: a fresh child goes on
        finally:
            # The measurement file after every GEMM: a run killed now keeps this entry.
            header = json.load(open(os.path.join(parts, "header.json")))
            base.write_atomic(args.out, json.dumps(base.merge(header, parts), indent=1) + "\n")
    return 1 if failed else 0


def run(args, gemms, kernels, base):
    if getattr(args, "child_family", None):
        fam = args.child_family
        for kernel, sparsity, family in base.variants(kernels):
            if family == fam:
                return run_family(args, gemms, family, kernel, sparsity, base)
        return 2
    parts = args.out + ".parts"
    os.makedirs(parts, exist_ok=True)
    settings = {"warmup": args.warmup, "runs": args.runs, "statistic": "median",
                "time_us": "cold per-launch time: (t[R x (flush, launch)] - t[R x flush]) / R",
                "sample_target_us": args.sample_us, "max_launches_per_sample": args.max_launches,
                "l2_flush": "torch.sum over 2 x L2 bytes (a read pass, one 4-byte write)",
                "isolation": "one child process per kernel family", "seed": args.seed,
                "samples_per_dim": args.samples,
                "operands": "fp16 +-(1+m/1024)*2^e, e in [-3,0] (torch generator: not the harness's bits)"}
    header = base.header_for(" ".join(sys.argv), device_info(), settings, gemms)
    base.write_atomic(os.path.join(parts, "header.json"), json.dumps(header))
    status = 0
    for kernel, sparsity, family in base.variants(kernels):
        for _attempt in range(len(gemms)):  # a fresh child after each CUDA error
            cmd = [sys.executable, base.__file__, "--out", args.out, "--kernels", ",".join(kernels),
                   "--runs", str(args.runs), "--warmup", str(args.warmup), "--sample-us", str(args.sample_us),
                   "--max-launches", str(args.max_launches), "--samples", str(args.samples),
                   "--seed", str(args.seed), "--only-gemms", args.only_gemms, "--child-family", family]
            for g in args.gemm:
                cmd += ["--gemm", g]
            try:
                rc = subprocess.run(cmd, timeout=args.family_timeout).returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
            if rc in (0, 1):
                status |= rc
                break
            # A crash, a hang or a CUDA error: the GEMM it was on is skipped, the rest go on.
            done = [i for i in range(len(gemms)) if os.path.exists(os.path.join(parts, base.part_name(i, family)))]
            nxt = next((i for i in range(len(gemms)) if i not in done), None)
            if nxt is None:
                break
            if rc != 3:
                base.write_part(parts, nxt, family, skipped={"name": gemms[nxt]["name"], "kernel": family,
                                                             "why": f"fault: child exit {rc}"})
        base.write_atomic(args.out, json.dumps(base.merge(header, parts), indent=1) + "\n")
    doc = base.merge(header, parts)
    base.write_atomic(args.out, json.dumps(doc, indent=1) + "\n")
    print(f"Wrote {args.out} ({len(doc['gemms'])} measurements, {len(doc['skipped'])} skipped)")
    return status
