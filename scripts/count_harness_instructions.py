#!/usr/bin/env python3
"""Count the warp instructions of the harness's mainloops in their PTX.

The model's issue port (mapping.ktile_prelude_instructions, ktile_copy_instructions,
ksub_prelude_instructions; models/mapping/harness_loop_instructions.cpp holds the table)
takes these counts: what a warp issues at the top of each k-tile before its first fragment
load (the wait, the barrier, the next stage's cp.async and their addresses), and at the top
of a rolled k-sub loop. They are read from the kernels' code, not fitted.

Usage: scripts/count_harness_instructions.py [PTX ...]
Without arguments it compiles validation/cuda/gemm_dense.cu, gemm_sp24.cu, gemm_bsr.cu
and validation/ubench/mainloop_bench.cu with nvcc (-O3, sm_90) into a temporary folder.

PTX, not SASS: ptxas may fold or expand a few instructions; the counts are per thread,
i.e. per warp instruction. scripts/sass_schedule.py reads the SASS itself (opcodes, stall
counts, scoreboards) from the cubin: the 2:4 kernel's loops have about three times these
counts' cycles there (docs/notes.md, session 33).
For each kernel entry it finds the k-tile loop (the one loop with mma or ldmatrix that
holds every other such loop) and, for a rolled k-sub loop inside it (the 2:4 kernel, one
trip per 32-wide k-sub), that loop too, and counts:
  prelude  along the k-tile loop's paths from its head to its first ldmatrix (to its first
           mma where it loads none), forward branches only: the longest path (the k-tiles
           that issue the next stage's copies) and the shortest (the last S-1, whose `if`
           skips them); copy = longest - shortest
  ksub_pre for a rolled k-sub loop: its instructions before its first ldmatrix
  body     the k-tile loop's instructions per k-tile (a rolled k-sub loop counted once per
           trip), with its mma, ldmatrix and cp.async, checked against the tile: mma =
           (WM/16)(WN/8) per k-sub, k-subs of 16 (dense, bsr) or 32 (sp24) along CK
It stops with an error where a kernel's loops or counts are not what it expects, or where
no kernel it knows is found.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ["validation/cuda/gemm_dense.cu", "validation/cuda/gemm_sp24.cu",
           "validation/cuda/gemm_bsr.cu", "validation/ubench/mainloop_bench.cu"]
ENTRY = re.compile(r"^(?:\.visible )?\.entry (\S+)\(")
LABEL = re.compile(r"^(\$L__\w+):")
BRANCH = re.compile(r"\bbra(?:\.uni)?\s+(\$L__\w+);")
KERNEL = re.compile(r"(dense|sp24|bsr)_gemmILi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)E(?:Lj(\d+)E)?")
VARIANTS = {15: "full", 14: "no_copy", 12: "no_copy_no_barrier", 8: "mma_only", 7: "no_mma"}


def compile_ptx(out_dir):
    paths = []
    carry = os.path.join(ROOT, "build/tests/validation/standalone/carry/include")
    for src in SOURCES:
        out = os.path.join(out_dir, os.path.basename(src).replace(".cu", ".ptx"))
        subprocess.run(["/usr/local/cuda/bin/nvcc", "-std=c++17", "-O3", "-arch=sm_90", "-ptx",
                        "-I" + ROOT, "-I" + carry, os.path.join(ROOT, src), "-o", out], check=True)
        paths.append(out)
    return paths


def is_instruction(line):
    s = line.strip()
    if not s or s.startswith(("//", ".", "{", "}", "$L__", ")")):
        return False
    return s.endswith(";")


def entries(text):
    lines = text.splitlines()
    starts = [(i, m.group(1)) for i, l in enumerate(lines) for m in [ENTRY.match(l)] if m]
    for n, (i, name) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        yield name, lines[i:end]


def loops(body):
    """(head line, back-edge line) of every backward branch."""
    labels = {m.group(1): i for i, l in enumerate(body) for m in [LABEL.match(l)] if m}
    out = []
    for i, l in enumerate(body):
        m = BRANCH.search(l)
        if m and m.group(1) in labels and labels[m.group(1)] < i:
            out.append((labels[m.group(1)], i))
    return out


def has(body, a, b, op):
    return any(op in body[i] for i in range(a, b + 1) if is_instruction(body[i]))


def count(body, a, b, op=None):
    return sum(1 for i in range(a, b + 1)
               if is_instruction(body[i]) and (op is None or op in body[i]))


def first(body, a, b, ops):
    for i in range(a, b + 1):
        if is_instruction(body[i]) and any(op in body[i] for op in ops):
            return i
    return None


def paths(body, a, stop):
    """(shortest, longest) instruction counts from line a to line stop (exclusive) through
    the forward branches between them."""
    labels = {m.group(1): i for i, l in enumerate(body) for m in [LABEL.match(l)] if m}
    memo = {}

    def walk(i):
        if i >= stop:
            return (0, 0)
        if i in memo:
            return memo[i]
        line = body[i]
        here = 1 if is_instruction(line) else 0
        m = BRANCH.search(line)
        target = labels.get(m.group(1)) if m else None
        if target is not None and i < target <= stop:
            taken = walk(target)
            if line.strip().startswith("@"):  # conditional: either way
                fall = walk(i + 1)
                r = (here + min(taken[0], fall[0]), here + max(taken[1], fall[1]))
            else:
                r = (here + taken[0], here + taken[1])
        else:
            r = walk(i + 1)
            r = (here + r[0], here + r[1])
        memo[i] = r
        return r

    sys.setrecursionlimit(max(10000, 4 * (stop - a)))
    return walk(a)


def analyse(name, body):
    found = [(h, e) for h, e in loops(body) if has(body, h, e, "mma.") or has(body, h, e, "ldmatrix")]
    if not found:
        return None
    m = KERNEL.search(name)
    cm, cn, ck, wm, wn, s = (int(x) for x in m.groups()[1:7])
    parts = int(m.group(8)) if m.group(8) else 15  # the bsr kernel runs every part
    outer = min(found, key=lambda r: r[0] - r[1])  # the widest: the k-tile loop
    inner = [r for r in found if r != outer and outer[0] <= r[0] and r[1] <= outer[1]]
    # Without fragment loads (mma_only) the compiler may split the loop (an unrolled body
    # and its remainder): the widest is counted; with them, anything else is unexpected.
    siblings = [r for r in found if r != outer and r not in inner]
    if len(inner) > 1 or (siblings and parts & 4):
        sys.exit(f"{name}: expected one k-tile loop holding at most one k-sub loop, found {found}")
    kind = m.group(1)
    row = {"kernel": kind, "tile": f"{cm}x{cn}x{ck}_{wm}x{wn}_s{s}",
           "variant": VARIANTS.get(parts, str(parts))}
    stop = first(body, outer[0], outer[1], ["ldmatrix"]) or first(body, outer[0], outer[1], ["mma."])
    shortest, longest = paths(body, outer[0], stop) if stop is not None else (0, 0)
    row["prelude"], row["copy"] = shortest, longest - shortest
    ksub_k = 32 if kind == "sp24" else 16
    trips = 1
    if inner:
        h, e = inner[0]
        trips = ck // ksub_k  # the 2:4 kernel's rolled loop: one trip per k-sub
        row["ksub"] = count(body, h, e)
        s0 = first(body, h, e, ["ldmatrix"])
        row["ksub_before_ldmatrix"] = count(body, h, s0 - 1) if s0 is not None else 0
    for key, op in (("body", None), ("mma", "mma."), ("ldmatrix", "ldmatrix"), ("cp_async", "cp.async.cg")):
        n = count(body, outer[0], outer[1], op)
        if inner:
            n += (trips - 1) * count(body, inner[0][0], inner[0][1], op)
        row[key] = n
    # An mma-only loop may be unrolled over k-tiles by the compiler: a whole multiple.
    per_ktile = (wm // 16) * (wn // 8) * (ck // ksub_k)
    if parts & 8 and (row["mma"] == 0 or row["mma"] % per_ktile):
        sys.exit(f"{name}: {row['mma']} mma in the k-tile loop, expected a multiple of {per_ktile}")
    return row


def main(argv):
    paths_in = argv[1:]
    tmp = None
    if not paths_in:
        tmp = tempfile.TemporaryDirectory()
        paths_in = compile_ptx(tmp.name)
    print(f"{'kernel':6} {'tile':22} {'variant':19} {'prelude':>7} {'copy':>5} {'body':>5} "
          f"{'mma':>4} {'ldm':>4} {'cp.async':>8} {'ksub':>5} {'ksub_pre':>8}")
    seen = set()
    for p in paths_in:
        with open(p) as f:
            text = f.read()
        for name, body in entries(text):
            if not KERNEL.search(name) or name in seen:
                continue
            seen.add(name)
            r = analyse(name, body)
            if r:
                print(f"{r['kernel']:6} {r['tile']:22} {r['variant']:19} {r['prelude']:7} "
                      f"{r['copy']:5} {r['body']:5} {r['mma']:4} {r['ldmatrix']:4} "
                      f"{r['cp_async']:8} {r.get('ksub', '-'):>5} "
                      f"{r.get('ksub_before_ldmatrix', '-'):>8}")
    if not seen:
        sys.exit("no dense_gemm, sp24_gemm or bsr_gemm kernel entry in " + ", ".join(paths_in))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
