#!/usr/bin/env python3
"""CPU test (ctest label `validation`) of validation/pytorch/baselines.py's pure-Python
parts, without torch: the GEMM list is the harness's --suite issue7 (read from
validation/harness/main.cpp), entries carry what `stcsim validate` reads
(validation/compare/measurements.cpp), parts are written atomically and merged in GEMM
order with torn parts reported, and usage errors exit 2. What needs torch is reported
skipped. usage: test_pytorch_baselines.py SOURCE_DIR"""
import importlib.util
import json
import os
import re
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
SRC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
spec = importlib.util.spec_from_file_location("baselines", os.path.join(SRC, "validation/pytorch/baselines.py"))
b = importlib.util.module_from_spec(spec)
spec.loader.exec_module(b)


def harness_suite():
    """The harness's issue7 list, parsed from its source."""
    with open(os.path.join(SRC, "validation/harness/main.cpp")) as f:
        text = f.read()
    body = text[text.index("issue7_suite() {"):]
    body = body[:body.index("return g;")]
    squares = re.findall(r'\{"(square_\d+)", (\d+), (\d+), (\d+)\}', body)
    layers = re.findall(r'\{"(\w+_mlp_\w+)", (\d+), (\d+)\}', body)
    ms = [int(v) for v in re.search(r"for \(int m : \{([\d, ]+)\}\)", body).group(1).split(",")]
    out = [{"name": s[0], "m": int(s[1]), "n": int(s[2]), "k": int(s[3])} for s in squares]
    for m in ms:
        for name, n, k in layers:
            out.append({"name": f"{name}.m{m}", "m": m, "n": int(n), "k": int(k)})
    return out


class PureParts(unittest.TestCase):
    def test_suite_is_the_harness_suite(self):
        h = harness_suite()
        self.assertEqual(len(h), 14)
        self.assertEqual(b.issue7_suite(), h)

    def test_parse_gemm(self):
        self.assertEqual(b.parse_gemm("128x3072x768"), {"name": "128x3072x768", "m": 128, "n": 3072, "k": 768})
        for bad in ("128x3072", "0x1x1", "ax1x1", "1x1x1x1"):
            with self.assertRaises(ValueError):
                b.parse_gemm(bad)

    def test_select_gemms(self):
        suite = b.issue7_suite()
        picked = b.select_gemms(suite, "llama7b_mlp_up.m128,square_4096")
        self.assertEqual([g["name"] for g in picked], ["square_4096", "llama7b_mlp_up.m128"])  # suite order
        self.assertEqual(b.select_gemms(suite, ""), suite)
        with self.assertRaises(ValueError):
            b.select_gemms(suite, "square_4096,nope")

    def test_variants_expand_bsr_sparsities(self):
        fams = [f for _, _, f in b.variants(list(b.KERNELS))]
        self.assertEqual(fams, ["torch_linear", "torch_24_cutlass", "torch_24_cusparselt",
                                "torch_bsr50", "torch_bsr75", "torch_bsr90"])

    def test_entry_has_what_validate_reads(self):
        g = {"name": "bert_mlp_up.m128", "m": 128, "n": 3072, "k": 768}
        e = b.make_entry(g, "torch_bsr", 0.75, [3.0, 1.0, 2.0], {"method": "cuda_graph"},
                         {"passed": True}, {"path": "x"})
        for key in ("name", "m", "n", "k", "dtype", "sparsity", "kernel"):
            self.assertIn(key, e)
        self.assertEqual(e["time_us"]["median"], 2.0)
        self.assertEqual(e["time_us"]["runs"], 3)
        self.assertIsNone(e["mapping"])  # a library: the simulator chooses its own mapping
        self.assertEqual(e["sparsity"], "bsr")
        self.assertEqual(e["bsr"]["block_rows"], 32)
        self.assertAlmostEqual(e["bsr"]["density"], 0.25)
        self.assertEqual(b.make_entry(g, "torch_24_cusparselt", None, [1.0], {}, {}, {})["sparsity"], "2:4")

    def test_parts_atomic_and_merged_in_order(self):
        with tempfile.TemporaryDirectory() as d:
            parts = os.path.join(d, "out.json.parts")
            g = {"name": "a", "m": 1, "n": 2, "k": 3}
            b.write_part(parts, 1, "torch_linear", entry=b.make_entry(g, "torch_linear", None, [5.0], {}, {}, {}))
            b.write_part(parts, 0, "torch_linear", skipped={"name": "z", "kernel": "torch_linear", "why": "error: x"})
            b.write_part(parts, 0, "torch_bsr50", entry=b.make_entry(g, "torch_bsr", 0.5, [7.0], {}, {}, {}))
            with open(os.path.join(parts, "g00002_torch_linear.json"), "w") as f:
                f.write('{"torn')
            self.assertFalse([f for f in os.listdir(parts) if ".tmp." in f])  # no temporaries left
            header = b.header_for("cmd", {"name": "X"}, {}, [g])
            doc = b.merge(header, parts)
            self.assertEqual(doc["schema"], "stcsim-measurements/1")
            self.assertFalse(doc["synthetic"])
            self.assertEqual([e["time_us"]["median"] for e in doc["gemms"]], [7.0, 5.0])  # g00000 first
            self.assertEqual(len(doc["skipped"]), 1)
            self.assertEqual(doc["unreadable_parts"], ["g00002_torch_linear.json"])
            b.write_atomic(os.path.join(d, "out.json"), json.dumps(doc))
            with open(os.path.join(d, "out.json")) as f:
                self.assertEqual(json.load(f)["gemm_list"][0]["name"], "a")

    def test_usage_errors_exit_2(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "o.json")
            self.assertEqual(b.main(["--out", out, "--kernels", "nope"]), 2)
            self.assertEqual(b.main(["--out", out, "--gemm", "1x2"]), 2)
            self.assertEqual(b.main(["--out", out, "--runs", "0"]), 2)


class NeedsTorch(unittest.TestCase):
    def test_measure(self):
        try:
            import torch
        except ImportError:
            self.skipTest("no torch on this machine")
        if not torch.cuda.is_available():
            self.skipTest("no GPU")
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "o.json")
            rc = b.main(["--out", out, "--gemm", "256x256x256", "--runs", "2", "--warmup", "1"])
            self.assertIn(rc, (0, 1))
            with open(out) as f:
                doc = json.load(f)
            self.assertTrue(doc["gemms"] or doc["skipped"])


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    if not result.wasSuccessful():
        sys.exit(1)
    if result.skipped:
        # The pure parts passed; say plainly what was not run.
        print(f"skipped (needs torch and a GPU): {[t.id() for t, _ in result.skipped]}")
