"""A run through Python is the CLI's run: the same arguments give the same stats.json,
value for value (host wall time aside), for a dense and a 2:4 GEMM on an overridden
config."""

import json
import os
import subprocess
import tempfile
import unittest

import support  # noqa: F401
import stcsim


def cli_stats(args):
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([stcsim.cli_path(), "run", *args, "--out", out, "-q"], check=True)
        with open(os.path.join(out, "stats.json")) as f:
            return json.load(f)


def without_host_time(stats):
    stats = json.loads(json.dumps(stats))
    del stats["total"]["wall_seconds"]  # seconds of this machine's time, not the model's
    return stats


class GemmMatchesCliTest(unittest.TestCase):
    def check(self, pattern, pattern_flags):
        cfg = stcsim.Config.preset("a100").set("gpu.num_sms", 54).set("l2.capacity_kib", 20480)
        result = stcsim.run_gemm(cfg, 128, 128, 128, dtype="bf16", pattern=pattern)
        expected = cli_stats(["--arch", "a100", "-p", "gpu.num_sms=54", "-p",
                              "l2.capacity_kib=20480", "--gemm", "128x128x128", "--dtype",
                              "bf16", *pattern_flags])
        self.assertEqual(without_host_time(result.stats), without_host_time(expected))
        self.assertEqual(result.cycles, expected["total"]["cycles"])
        self.assertEqual(result.config["hardware"]["gpu"]["params"]["num_sms"]["value"], 54)
        self.assertIn("-p gpu.num_sms=54", result.command)

    def test_dense_gemm(self):
        self.check("dense", [])

    def test_sparse_24_gemm_with_its_dense_twin(self):
        self.check("2:4", ["--sparsity", "2:4"])


if __name__ == "__main__":
    unittest.main()
