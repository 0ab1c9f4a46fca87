#!/usr/bin/env python3
"""Count the warp instructions of the harness's mainloops in their PTX.

The model's issue port (mapping.ktile_prelude_instructions, mapping.ksub_other_instructions)
takes these counts: what a warp issues at the top of each k-tile before its first fragment
load (the wait, the barrier, the next stage's cp.async and their addresses), and what it
issues a k-sub besides its mma. They are read from the kernels' code, not fitted.

Usage: scripts/count_harness_instructions.py [PTX ...]
Without arguments it compiles validation/cuda/gemm_dense.cu, gemm_sp24.cu, gemm_bsr.cu
and validation/ubench/mainloop_bench.cu with nvcc (-O3, sm_90) into a temporary folder.

PTX, not SASS: ptxas may fold or expand a few instructions (no SASS disassembler is
installed on the build machine); the counts are per thread, i.e. per warp instruction.
For each kernel entry it finds the k-tile loop (the outermost loop with mma or ldmatrix)
and, for a rolled k-sub loop inside it (the 2:4 kernel), that loop too, and counts:
  prelude  instruction lines from the k-tile loop's head to its first ldmatrix (to its
           first mma where it loads none): the common path, copies issued
  ksub     for a rolled k-sub loop: its instruction lines, and those before its first ldmatrix
  body     the k-tile loop's instructions per k-tile (a rolled k-sub loop counted once per
           trip), with its mma, ldmatrix and cp.async
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


def analyse(name, body):
    found = [(h, e) for h, e in loops(body) if has(body, h, e, "mma.") or has(body, h, e, "ldmatrix")]
    if not found:
        return None
    outer = min(found, key=lambda r: r[0] - r[1])  # the widest: the k-tile loop
    inner = [r for r in found if r != outer and outer[0] <= r[0] and r[1] <= outer[1]]
    m = KERNEL.search(name)
    cm, cn, ck, wm, wn, s = (int(x) for x in m.groups()[1:7])
    parts = int(m.group(8)) if m.group(8) else 15  # the bsr kernel runs every part
    row = {"kernel": m.group(1), "tile": f"{cm}x{cn}x{ck}_{wm}x{wn}_s{s}",
           "variant": VARIANTS.get(parts, str(parts))}
    stop = first(body, outer[0], outer[1], ["ldmatrix"]) or first(body, outer[0], outer[1], ["mma."])
    row["prelude"] = count(body, outer[0], stop - 1) if stop is not None else 0
    trips = 1
    if inner:
        h, e = inner[0]
        trips = ck // 32  # the 2:4 kernel's rolled loop: one trip per 32-wide k-sub
        row["ksub"] = count(body, h, e)
        s0 = first(body, h, e, ["ldmatrix"])
        row["ksub_before_ldmatrix"] = count(body, h, s0 - 1) if s0 is not None else 0
    for key, op in (("body", None), ("mma", "mma."), ("ldmatrix", "ldmatrix"), ("cp_async", "cp.async.cg")):
        n = count(body, outer[0], outer[1], op)
        if inner:
            n += (trips - 1) * count(body, inner[0][0], inner[0][1], op)
        row[key] = n
    return row


def main(argv):
    paths = argv[1:]
    tmp = None
    if not paths:
        tmp = tempfile.TemporaryDirectory()
        paths = compile_ptx(tmp.name)
    print(f"{'kernel':6} {'tile':22} {'variant':19} {'prelude':>7} {'body':>5} {'mma':>4} "
          f"{'ldm':>4} {'cp.async':>8} {'ksub':>5} {'ksub_pre':>8}")
    seen = set()
    for p in paths:
        with open(p) as f:
            text = f.read()
        for name, body in entries(text):
            if not KERNEL.search(name) or name in seen:
                continue
            seen.add(name)
            r = analyse(name, body)
            if r:
                print(f"{r['kernel']:6} {r['tile']:22} {r['variant']:19} {r['prelude']:7} "
                      f"{r['body']:5} {r['mma']:4} {r['ldmatrix']:4} {r['cp_async']:8} "
                      f"{r.get('ksub', '-'):>5} {r.get('ksub_before_ldmatrix', '-'):>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
