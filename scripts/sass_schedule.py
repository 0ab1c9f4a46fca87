#!/usr/bin/env python3
"""The harness kernels' loops as ptxas scheduled them: SASS read from the cubin's bits.

No SASS disassembler is installed on the build machine (no cuobjdump, no nvdisasm), but
nvcc and ptxas are, and a cubin is an ELF file whose .text.<kernel> sections hold 16-byte
instructions. This reads three things from each instruction:
  opcode   the low 12 bits; the few this needs (HMMA, LDSM, LDS, LDGSTS, BAR, BRA, ...)
           are learnt from probe kernels compiled here, one instruction kind each, and the
           table below is checked against them on every run (an nvcc that encodes them
           differently stops the script instead of misreading the loops);
  control  bits 105-125, as every Volta-and-later SASS word has them: the stall count
           (cycles the warp waits before its next instruction issues: ptxas's own fixed-
           latency schedule), the yield bit, the scoreboard an instruction sets on write
           and on read, and the scoreboards it waits on;
  branch   a BRA's signed offset in 4-byte units (bits 16-23 and 34-63, sign in hi).
For each backward branch (a loop) it prints the body's instructions, the sum of their
stall counts (the cycles one warp alone on its sub-core takes to issue the body once,
before any wait on a load or the tensor pipe), and the instruction mix; --list prints the
body instruction by instruction with the scoreboards each waits on.

Usage: scripts/sass_schedule.py [--list | --table | --check-table] [--kernel SUBSTRING] [CUBIN ...]
Without CUBINs it compiles validation/cuda/gemm_dense.cu and gemm_sp24.cu with nvcc
(-O3, sm_90) into a temporary folder. --self-test compiles the probes, checks the opcode
table, the control-word fields and a known loop, and exits 0 (the test suite runs it).
--table prints the figures models/mapping/harness_loop_instructions.cpp takes (one row per
harness kernel found in the cubins: give mainloop_bench.cu's for the anatomy's variants);
--check-table compiles every harness kernel and compares them with that file's rows.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NVCC = "/usr/local/cuda/bin/nvcc"
SOURCES = ["validation/cuda/gemm_dense.cu", "validation/cuda/gemm_sp24.cu",
           "validation/cuda/gemm_bsr.cu"]

OPCODES = {0x23C: "HMMA", 0x83B: "LDSM", 0x984: "LDS", 0xFAE: "LDGSTS", 0x9AF: "LDGDEPBAR",
           0x91A: "DEPBAR", 0xB1D: "BAR", 0x981: "LDG", 0x986: "STG", 0x947: "BRA",
           0x94D: "EXIT", 0x918: "NOP"}

# One kernel per instruction kind; the opcode each must contain (and the others must not).
PROBES = r'''
#include <cstdint>
#include "validation/cuda/ptx.cuh"
using namespace stcsim::validation;
__global__ void probe_ldsm(uint32_t* o, int off) {
  __shared__ uint32_t s[1024]; uint32_t r[4]; ldmatrix_x4(r, smem_addr(s) + off);
  o[threadIdx.x] = r[0] + r[1] + r[2] + r[3]; }
__global__ void probe_lds(uint32_t* o, int off) { __shared__ uint32_t s[1024]; o[threadIdx.x] = s[off]; }
__global__ void probe_hmma(float* o, const uint32_t* in) {
  float d[4] = {0, 0, 0, 0}; uint32_t a[4] = {in[0], in[1], in[2], in[3]};
  mma_m16n8k16(d, a, in[4], in[5]); o[threadIdx.x] = d[0] + d[1] + d[2] + d[3]; }
__global__ void probe_hmma_sp(float* o, const uint32_t* in) {
  float d[4] = {0, 0, 0, 0}; uint32_t a[4] = {in[0], in[1], in[2], in[3]};
  uint32_t b[4] = {in[4], in[5], in[6], in[7]};
  mma_sp_m16n8k32(d, a, b, in[8]); o[threadIdx.x] = d[0] + d[1] + d[2] + d[3]; }
__global__ void probe_ldgsts(const char* g) {
  __shared__ char s[4096]; cp_async16(smem_addr(s) + threadIdx.x * 16, g + threadIdx.x * 16);
  cp_async_commit(); cp_async_wait<0>(); }
__global__ void probe_bar(int* o) { __syncthreads(); o[0] = 1; }
__global__ void probe_loop(int* o, int n) {
  int s = 0;
#pragma unroll 1
  for (int i = 0; i < n; ++i) s = s * 3 + o[i];
  o[0] = s; }
'''
EXPECT = {"probe_ldsm": "LDSM", "probe_lds": "LDS", "probe_hmma": "HMMA",
          "probe_hmma_sp": "HMMA", "probe_ldgsts": "LDGSTS", "probe_bar": "BAR"}


def text_sections(path):
    """(kernel name, code bytes) of each .text.<kernel> section of an ELF64 cubin."""
    with open(path, "rb") as f:
        d = f.read()
    if d[:4] != b"\x7fELF" or d[4] != 2:
        raise SystemExit(f"{path}: not an ELF64 file (a cubin from nvcc -cubin is expected)")
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    secs = [struct.unpack_from("<IIQQQQ", d, shoff + i * shentsize) for i in range(shnum)]
    strtab = secs[shstrndx][4]
    for name, _typ, _flags, _addr, off, size in secs:
        n = d[strtab + name:d.index(b"\0", strtab + name)].decode()
        if n.startswith(".text."):
            yield n[len(".text."):], d[off:off + size]


def instructions(code):
    """(byte offset, low word, high word) of each 16-byte instruction."""
    for i in range(0, len(code) - 15, 16):
        lo, hi = struct.unpack_from("<QQ", code, i)
        yield i, lo, hi


def opname(lo):
    op = lo & 0xFFF
    return OPCODES.get(op, "op%03x" % op)


def control(hi):
    c = hi >> 41  # bits 105-125 of the instruction
    return {"stall": c & 0xF, "yield": (c >> 4) & 1, "write_sb": (c >> 5) & 7,
            "read_sb": (c >> 8) & 7, "wait": (c >> 11) & 0x3F}


def branch_target(i, lo, hi):
    v = (lo >> 16) & 0xFF | ((lo >> 34) & 0x3FFFFFFF) << 8 | (hi & 0x3FFFF) << 38
    if v >> 55 & 1:
        v -= 1 << 56
    return i + 16 + 4 * v


def loops(code):
    """Each backward branch's loop: (start, branch offset, body instructions without NOPs)."""
    ins = list(instructions(code))
    for i, lo, hi in ins:
        if opname(lo) != "BRA":
            continue
        t = branch_target(i, lo, hi)
        if t <= i:
            # NOPs inside a loop are ptxas's padding of a fixed latency: their stall counts.
            yield t, i, [(j, l, h) for j, l, h in ins if t <= j <= i]


def describe(body):
    mix = {}
    for _, lo, _ in body:
        n = opname(lo)
        n = n if not n.startswith("op") else "other"
        mix[n] = mix.get(n, 0) + 1
    stalls = sum(control(h)["stall"] for _, _, h in body)
    return stalls, ", ".join(f"{k} {v}" for k, v in sorted(mix.items()))


def listing(body):
    for i, lo, hi in body:
        c = control(hi)
        sets = ("W%d" % c["write_sb"] if c["write_sb"] != 7 else "") + \
               (" R%d" % c["read_sb"] if c["read_sb"] != 7 else "")
        waits = ",".join(str(k) for k in range(6) if c["wait"] >> k & 1)
        print("    %05x %-9s stall %2d  %-6s wait [%s]" % (i, opname(lo), c["stall"], sets, waits))


# The harness kernels' mangled names and the anatomy's variants, as the PTX counter reads them.
from count_harness_instructions import KERNEL, VARIANTS  # noqa: E402 (beside this script)


def always(lo):
    """An instruction without a guard predicate (@PT)."""
    return (lo >> 12) & 0xF == 7


def path_stalls(ins, a, stop):
    """(shortest, longest) stall-count sums from instruction a to stop (exclusive) through
    the conditional forward branches between them (ins: the kernel's instructions)."""
    at = {off: n for n, (off, _, _) in enumerate(ins)}
    memo = {}

    def walk(n):
        if n >= stop:
            return (0, 0)
        if n in memo:
            return memo[n]
        off, lo, hi = ins[n]
        here = control(hi)["stall"]
        t = at.get(branch_target(off, lo, hi)) if opname(lo) == "BRA" else None
        if t is not None and n < t <= stop:
            taken = walk(t)
            if always(lo):
                r = (here + taken[0], here + taken[1])
            else:
                fall = walk(n + 1)
                r = (here + min(taken[0], fall[0]), here + max(taken[1], fall[1]))
        else:
            nxt = walk(n + 1)
            r = (here + nxt[0], here + nxt[1])
        memo[n] = r
        return r

    sys.setrecursionlimit(max(10000, 4 * (stop - a)))
    return walk(a)


def harness_row(name, code):
    """The figures the model's issue model takes for one harness kernel (docs/mapping.md):
    the k-tile's prelude cycles on the path that skips the copies and what the copies add
    (stall counts from the k-tile loop's head to its first LDSM, its first HMMA where it
    loads none, plus its tail after its last HMMA or inner loop), and for a rolled k-sub
    loop its prelude cycles (its head to its first LDSM, plus its back edge after its last
    HMMA), the number of HMMA issued before the first that waits on fragments loaded after
    an earlier HMMA (0: none), and the cycles from the first HMMA's issue to that second
    group's last LDSM."""
    m = KERNEL.search(name)
    if not m:
        return None
    ins = list(instructions(code))
    idx = {off: n for n, (off, _, _) in enumerate(ins)}
    found = []
    for t, e, body in loops(code):
        names = {opname(lo) for _, lo, _ in body}
        if t < e and names & {"HMMA", "LDSM"}:
            found.append((idx[t], idx[e]))
    if not found:
        return None
    outer = max(found, key=lambda r: r[1] - r[0])
    inner = [r for r in found if r != outer and outer[0] <= r[0] and r[1] <= outer[1]]
    parts = int(m.group(8)) if m.group(8) else 15
    if len(inner) > 1:
        raise SystemExit(f"{name}: more than one loop inside the k-tile loop")
    first = lambda a, b, op: next((n for n in range(a, b + 1) if opname(ins[n][1]) == op), None)
    last = lambda a, b, op: next((n for n in range(b, a - 1, -1) if opname(ins[n][1]) == op), None)
    stop = first(outer[0], outer[1], "LDSM")
    if stop is None:
        stop = first(outer[0], outer[1], "HMMA")
    shortest, longest = path_stalls(ins, outer[0], stop) if stop is not None else (0, 0)
    # The k-tile loop's tail: after its last HMMA (or its inner loop's back edge) through
    # its own back edge.
    tail_from = inner[0][1] + 1 if inner else (last(outer[0], outer[1], "HMMA") or outer[1]) + 1
    tail = sum(control(ins[n][2])["stall"] for n in range(tail_from, outer[1] + 1))
    row = {"kernel": m.group(1), "cta": tuple(int(x) for x in m.groups()[1:7]),
           "variant": VARIANTS.get(parts, str(parts)), "ktile_prelude_cycles": shortest + tail,
           "ktile_copy_cycles": longest - shortest, "ksub_prelude_cycles": 0,
           "ksub_rest_from": 0, "ksub_rest_gap": 0}
    if inner:
        h, e = inner[0]
        s0 = first(h, e, "LDSM")
        if s0 is None:  # no fragment loads (the anatomy's mma_only): up to its first mma
            s0 = first(h, e, "HMMA")
        h_last = last(h, e, "HMMA")
        pre = sum(control(ins[n][2])["stall"] for n in range(h, s0 if s0 is not None else h))
        back = sum(control(ins[n][2])["stall"] for n in range(h_last + 1, e + 1)) if h_last else 0
        row["ksub_prelude_cycles"] = pre + back
        hmma = [n for n in range(h, e + 1) if opname(ins[n][1]) == "HMMA"]
        for r in range(1, len(hmma)):
            # The scoreboards this HMMA waits on, each set last by which instruction before it.
            waits = control(ins[hmma[r]][2])["wait"]
            setter = {}
            for n in range(h, hmma[r]):
                sb = control(ins[n][2])["write_sb"]
                if sb != 7:
                    setter[sb] = n
            late = [n for sb, n in setter.items() if waits >> sb & 1 and n > hmma[0]
                    and opname(ins[n][1]) == "LDSM"]
            if late:
                row["ksub_rest_from"] = r
                row["ksub_rest_gap"] = sum(control(ins[n][2])["stall"]
                                           for n in range(hmma[0], max(late)))
                break
    return row


TABLE = "models/mapping/harness_loop_instructions.cpp"
PARTS = {"kFull": "full", "kNoCopy": "no_copy", "kNoCopyNoBarrier": "no_copy_no_barrier",
         "kMmaOnly": "mma_only", "kNoMma": "no_mma"}


def check_table(tmp):
    """The table's SASS columns against the kernels as this nvcc compiles them: the full
    kernels from gemm_*.cu, the anatomy's variants from mainloop_bench.cu."""
    found = {}
    for src in SOURCES + ["validation/ubench/mainloop_bench.cu"]:
        cubin = compile_cubin(os.path.join(ROOT, src),
                              os.path.join(tmp, os.path.basename(src) + ".cubin"))
        for name, code in text_sections(cubin):
            r = harness_row(name, code)
            if r:
                found[(r["kernel"], r["cta"], r["variant"])] = (
                    r["ktile_prelude_cycles"], r["ktile_copy_cycles"], r["ksub_prelude_cycles"],
                    r["ksub_rest_from"], r["ksub_rest_gap"])
    row = re.compile(r'\{"(\w+)", ((?:\d+, ){6})(\w+), (?:\d+, ){3}(\d+), (\d+), (\d+), (\d+), (\d+)\}')
    with open(os.path.join(ROOT, TABLE)) as f:
        rows = row.findall(f.read())
    bad = []
    for kernel, cta, parts, *cycles in rows:
        key = (kernel, tuple(int(x) for x in cta.rstrip(", ").split(", ")), PARTS[parts])
        want = tuple(int(x) for x in cycles)
        got = found.get(key)
        if got != want:
            bad.append(f"{key}: table {want}, SASS {got}")
    for b in bad:
        print("sass_schedule --check-table: " + b, file=sys.stderr)
    if not rows:
        print(f"sass_schedule --check-table: no rows read from {TABLE}", file=sys.stderr)
        return 1
    if bad:
        print(f"{len(bad)} of {len(rows)} rows differ: rerun scripts/sass_schedule.py --table "
              f"(with mainloop_bench.cu's cubin for the variants) and update {TABLE}",
              file=sys.stderr)
        return 1
    print(f"sass_schedule --check-table: {len(rows)} rows match the kernels' SASS")
    return 0


def compile_cubin(src, out, source_text=None):
    cmd = [NVCC, "-std=c++17", "-O3", "-arch=sm_90", "-cubin", "-I" + ROOT, "-o", out]
    if source_text is not None:
        with open(src, "w") as f:
            f.write(source_text)
    subprocess.run(cmd + [src], check=True)
    return out


def self_test(tmp):
    cubin = compile_cubin(os.path.join(tmp, "probes.cu"), os.path.join(tmp, "probes.cubin"), PROBES)
    kernels = dict(text_sections(cubin))
    failures = []
    for probe, want in EXPECT.items():
        code = next((c for k, c in kernels.items() if probe + "P" in k), None)
        if code is None:
            failures.append(f"{probe}: not in the cubin")
            continue
        names = [opname(lo) for _, lo, _ in instructions(code)]
        if want not in names:
            failures.append(f"{probe}: no {want} (opcodes {sorted(set(names))})")
        others = {v for k, v in EXPECT.items() if v != want and k != probe}
        if others & set(names) - {"LDS"} and want != "LDS":
            failures.append(f"{probe}: also {sorted(others & set(names))}")
    # A scoreboard: the ldmatrix sets one, and an instruction after it waits on it.
    code = next(c for k, c in kernels.items() if "probe_ldsmP" in k)
    ins = list(instructions(code))
    ldsm = [control(h)["write_sb"] for _, lo, h in ins if opname(lo) == "LDSM"]
    if not ldsm or ldsm[0] == 7 or not any(control(h)["wait"] >> ldsm[0] & 1 for _, _, h in ins):
        failures.append("probe_ldsm: the ldmatrix's scoreboard is not set and waited on")
    # The padding NOPs after a kernel's end: no stall, no scoreboard set, none waited on.
    for k, c in kernels.items():
        ins = list(instructions(c))
        last_bra = max(n for n, (_, lo, _) in enumerate(ins) if opname(lo) == "BRA")
        for _, lo, hi in ins[last_bra + 1:]:
            if opname(lo) == "NOP" and control(hi) != {"stall": 0, "yield": 0, "write_sb": 7,
                                                       "read_sb": 7, "wait": 0}:
                failures.append(f"{k}: a NOP's control word reads {control(hi)}")
                break
    # The mma waits on the scoreboard its operands' global loads set.
    code = next(c for k, c in kernels.items() if "probe_hmmaP" in k)
    ins = list(instructions(code))
    ldg = {control(h)["write_sb"] for _, lo, h in ins if opname(lo) == "LDG"}
    hmma = [control(h)["wait"] for _, lo, h in ins if opname(lo) == "HMMA"]
    if len(ldg) != 1 or 7 in ldg or not hmma or not hmma[0] >> next(iter(ldg)) & 1:
        failures.append(f"probe_hmma: the loads set {sorted(ldg)}, the mma waits on {hmma}")
    # Stall counts take 4 bits: ptxas pads the mma's fixed latency with 8 or more somewhere.
    if max(control(h)["stall"] for c in kernels.values() for _, _, h in instructions(c)) < 8:
        failures.append("no stall count of 8 or more in any probe")
    # The loop: one backward branch whose body holds the load and a multiply-add.
    code = next(c for k, c in kernels.items() if "probe_loopP" in k)
    found = [(s, e, b) for s, e, b in loops(code) if s < e]
    if len(found) != 1 or "LDG" not in [opname(lo) for _, lo, _ in found[0][2]]:
        failures.append(f"probe_loop: expected one loop with its LDG, found {len(found)}")
    for f in failures:
        print("sass_schedule self-test: " + f, file=sys.stderr)
    if failures:
        return 1
    print("sass_schedule self-test: opcodes, scoreboards and the loop found as expected")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cubins", nargs="*")
    ap.add_argument("--kernel", default="", help="only kernels whose mangled name contains this")
    ap.add_argument("--list", action="store_true", help="each loop's instructions")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--table", action="store_true",
                    help="the harness kernels' rows for models/mapping/harness_loop_instructions.cpp")
    ap.add_argument("--check-table", action="store_true",
                    help="compile every harness kernel and compare with that file's table")
    a = ap.parse_args()
    if not os.path.exists(NVCC):
        print(f"sass_schedule: {NVCC} not found", file=sys.stderr)
        return 77  # skipped (CTest's SKIP_RETURN_CODE)
    with tempfile.TemporaryDirectory() as tmp:
        if a.self_test:
            return self_test(tmp)
        cubins = a.cubins or [compile_cubin(os.path.join(ROOT, s),
                                            os.path.join(tmp, os.path.basename(s) + ".cubin"))
                              for s in SOURCES]
        if a.check_table:
            return check_table(tmp)
        if a.table:
            rows = [r for path in cubins for name, code in text_sections(path)
                    for r in [harness_row(name, code)] if r and a.kernel in name]
            print("kernel cta_m cta_n cta_k warp_m warp_n stages variant ktile_prelude_cycles "
                  "ktile_copy_cycles ksub_prelude_cycles ksub_rest_from ksub_rest_gap")
            for r in sorted(rows, key=lambda r: (r["kernel"], r["variant"], r["cta"])):
                print(r["kernel"], *r["cta"], r["variant"], r["ktile_prelude_cycles"],
                      r["ktile_copy_cycles"], r["ksub_prelude_cycles"], r["ksub_rest_from"],
                      r["ksub_rest_gap"])
            return 0
        for path in cubins:
            for name, code in text_sections(path):
                if a.kernel not in name:
                    continue
                found = [(s, e, b) for s, e, b in loops(code) if s < e]
                if not found:
                    continue
                print(name)
                for s, e, body in found:
                    stalls, mix = describe(body)
                    print(f"  loop {s:05x}-{e:05x}: {len(body)} instructions, "
                          f"{stalls} cycles of stall counts; {mix}")
                    if a.list:
                        listing(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
