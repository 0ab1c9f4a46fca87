"""Tables of a run, models and traces, and errors coming back as exceptions that carry
the CLI's message."""

import os
import stat
import tempfile
import unittest

import support
import stcsim

support.require_pandas()


class RunsAndErrorsTest(unittest.TestCase):
    cfg = stcsim.Config.preset("a100")

    def test_ops_table_has_a_row_per_gemm_and_dotted_columns(self):
        r = stcsim.run_gemms(self.cfg, ["128x128x128", (256, 128, 64)])
        ops = r.ops
        self.assertEqual(list(ops["name"]), ["128x128x128", "256x128x64"])
        self.assertEqual(list(ops["m"]), [128, 256])
        for column in ("cycles", "tflops", "limiter", "utilization.tensor", "mapping.cta_m"):
            self.assertIn(column, ops.columns)
        self.assertEqual(ops["cycles"].sum(), r.cycles)

    def test_model_with_two_variants(self):
        r = stcsim.run_model(self.cfg, "dlrm_kaggle", batch=128, prune=["dense", "2:4"])
        self.assertEqual(list(r.variants["name"]), ["dense", "2:4"])
        self.assertEqual(set(r.ops["variant"]), {"dense", "2:4"})
        self.assertEqual(len(r.ops), 2 * len(stcsim.model_gemms("dlrm_kaggle", batch=128)))

    def test_model_gemms_mark_causal_attention(self):
        g = stcsim.model_gemms("gpt2", seq=64)
        scores = g[g["name"] == "gpt2.l0.attn_scores"].iloc[0]
        self.assertEqual((scores["m"], scores["n"], scores["k"], scores["batch"]), (64, 64, 64, 12))
        self.assertEqual(scores["causal"], "output")
        self.assertEqual(g[g["name"] == "gpt2.l0.attn_context"].iloc[0]["causal"], "a")
        self.assertEqual(g[g["name"] == "gpt2.l0.qkv"].iloc[0]["causal"], "none")

    def test_trace(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "two.trace")
            with open(path, "w") as f:
                f.write("stcsim-trace 0\n128x128x128 fp16 first\n128x256x128 int8 second\n")
            self.assertEqual(len(stcsim.trace_gemms(path)), 2)
            r = stcsim.run_trace(self.cfg, path)
        self.assertEqual(list(r.ops["name"]), ["first", "second"])
        self.assertEqual(list(r.ops["dtype"]), ["fp16", "int8"])

    def test_bad_shape_raises_the_cli_message(self):
        with self.assertRaises(stcsim.InputError) as caught:
            stcsim.run_gemm(self.cfg, 0, 128, 128)
        message = str(caught.exception)
        self.assertIn("--gemm", message)
        self.assertIn("0x128x128", message)
        self.assertIn("--gemm 0x128x128", caught.exception.command)

    def test_bad_option_values_raise_naming_the_option(self):
        with self.assertRaisesRegex(stcsim.InputError, "fp17"):
            stcsim.run_gemm(self.cfg, 128, 128, 128, dtype="fp17")
        with self.assertRaisesRegex(stcsim.InputError, "--block"):
            stcsim.run_gemm(self.cfg, 128, 128, 128, pattern="block:32y32@0.5")
        with self.assertRaisesRegex(stcsim.InputError, "--l2"):
            stcsim.run_gemm(self.cfg, 128, 128, 128, l2="lukewarm")

    def test_a_crashed_child_raises_simulation_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake = os.path.join(tmp, "stcsim")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\necho 'about to fail' >&2\nkill -SEGV $$\n")
            os.chmod(fake, stat.S_IRWXU)
            os.environ["STCSIM_BIN"] = fake
            try:
                with self.assertRaises(stcsim.SimulationError) as caught:
                    stcsim.run_gemm(self.cfg, 128, 128, 128)
            finally:
                del os.environ["STCSIM_BIN"]
        self.assertIn("SIGSEGV", str(caught.exception))
        self.assertIn("about to fail", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
