"""A two-point sweep through `stcsim sweep`, as a DataFrame, and a bad spec raising."""

import unittest

import support
import stcsim

support.require_pandas()


def spec(**vary):
    return {"schema_version": 1, "name": "py_two_points", "base": "a100",
            "vary": vary, "workloads": ["128x128x128"]}


class SweepTest(unittest.TestCase):
    def test_two_points(self):
        table = stcsim.sweep(spec(**{"gpu.num_sms": [54, 108]}), jobs=2)
        self.assertEqual(list(table["point"]), [0, 1])
        self.assertEqual(list(table["gpu.num_sms"]), [54, 108])
        self.assertEqual(list(table["status"]), ["ok", "ok"])
        self.assertTrue((table["cycles"] > 0).all())
        self.assertEqual(table["speedup_vs_ref"][0], 1.0)
        # The same point run alone gives the same cycles.
        alone = stcsim.run_gemm(stcsim.Config.preset("a100").set("gpu.num_sms", 54), 128, 128, 128)
        self.assertEqual(table["cycles"][0], alone.cycles)

    def test_bad_key_raises_naming_it(self):
        with self.assertRaisesRegex(stcsim.InputError, "l2.slicez"):
            stcsim.sweep(spec(**{"l2.slicez": [8, 16]}))


if __name__ == "__main__":
    unittest.main()
