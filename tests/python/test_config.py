"""The in-process half: presets, configs and overrides checked as the CLI checks them,
the component catalogue and model lowering."""

import os
import tempfile
import unittest

import support
import stcsim


def value(cfg, section, key):
    return cfg.resolved()["hardware"][section]["params"][key]


class ConfigTest(unittest.TestCase):
    def test_import_finds_the_built_cli(self):
        self.assertTrue(os.access(stcsim.cli_path(), os.X_OK))

    def test_presets_are_listed_and_load(self):
        self.assertTrue({"a100", "h100", "v100"} <= set(stcsim.presets()))
        cfg = stcsim.Config.preset("a100")
        self.assertEqual(cfg.name, "a100")
        self.assertEqual(value(cfg, "gpu", "num_sms")["value"], 108)

    def test_override_changes_the_resolved_value_and_its_source(self):
        cfg = stcsim.Config.preset("a100").set("gpu.num_sms", 54).set("dram.efficiency", 0.9)
        self.assertEqual(value(cfg, "gpu", "num_sms")["value"], 54)
        self.assertEqual(value(cfg, "gpu", "num_sms")["from"], "-p")
        self.assertEqual(value(cfg, "dram", "efficiency")["value"], 0.9)
        self.assertEqual(cfg.cli_args(), ["--arch", "a100", "-p", "gpu.num_sms=54",
                                          "-p", "dram.efficiency=0.9"])

    def test_copy_is_independent(self):
        base = stcsim.Config.preset("h100")
        half = base.copy().set("gpu.num_sms", 66)
        self.assertEqual(value(base, "gpu", "num_sms")["value"], 132)
        self.assertEqual(value(half, "gpu", "num_sms")["value"], 66)

    def test_unknown_key_raises_naming_it_and_the_nearest_key(self):
        cfg = stcsim.Config.preset("a100")
        with self.assertRaises(stcsim.InputError) as caught:
            cfg.set("gpu.num_smz", 54)
        self.assertIn("num_smz", str(caught.exception))
        self.assertIn("num_sms", str(caught.exception))
        self.assertEqual(cfg.overrides, [])  # the failed override left nothing behind

    def test_out_of_range_and_wrong_type_values_raise(self):
        cfg = stcsim.Config.preset("a100")
        with self.assertRaisesRegex(stcsim.InputError, "gpu.num_sms"):
            cfg.set("gpu.num_sms", -3)
        with self.assertRaisesRegex(TypeError, "gpu.num_sms"):
            cfg.set("gpu.num_sms", [54])

    def test_unknown_preset_lists_the_presets(self):
        with self.assertRaisesRegex(stcsim.InputError, "a100"):
            stcsim.Config.preset("a1000")

    def test_yaml_file_errors_name_the_file_line_and_key(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "half_l2.yaml")
            with open(path, "w") as f:
                f.write("schema_version: 1\nbase: a100\nname: half_l2\nl2:\n  capacity_kib: 20480\n")
            cfg = stcsim.Config.from_yaml(path)
            self.assertEqual(cfg.name, "half_l2")
            self.assertEqual(value(cfg, "l2", "capacity_kib")["value"], 20480)
            with open(path, "a") as f:
                f.write("  capacity_kb: 1\n")
            with self.assertRaises(stcsim.InputError) as caught:
                stcsim.Config.from_yaml(path)
            message = str(caught.exception)
            self.assertIn("half_l2.yaml:6", message)
            self.assertIn("capacity_kb", message)

    def test_components_list_parameters_with_units(self):
        l2 = [c for c in stcsim.components("l2") if c["default"]]
        self.assertEqual(len(l2), 1)
        keys = {p["key"]: p for p in l2[0]["params"]}
        self.assertIn("capacity_kib", keys)
        self.assertTrue(keys["capacity_kib"]["unit"])
        with self.assertRaisesRegex(stcsim.InputError, "l2"):
            stcsim.components("l3")

    def test_model_lowering_in_process(self):
        support.require_pandas()
        gemms = stcsim.model_gemms("dlrm_kaggle", batch=128, prune="2:4")
        self.assertEqual(len(gemms), 7)
        self.assertEqual(set(gemms["m"]), {128})
        self.assertIn("2:4", set(gemms["pattern"]))
        with self.assertRaises(stcsim.InputError):
            stcsim.model_gemms("no_such_model")

    def test_checkpoint_tensors_not_lowered_are_warnings(self):
        # A .safetensors file with a Linear weight [4, 8] and a conv kernel [2, 3, 3, 3]:
        # the first runs, the second is named in a UserWarning (a weight file has no graph).
        support.require_pandas()
        import json
        import struct
        import warnings
        header = {"fc.weight": {"dtype": "F32", "shape": [4, 8], "data_offsets": [0, 128]},
                  "conv.weight": {"dtype": "F32", "shape": [2, 3, 3, 3],
                                  "data_offsets": [128, 344]}}
        text = json.dumps(header).encode()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "net.safetensors")
            with open(path, "wb") as f:
                f.write(struct.pack("<Q", len(text)) + text + bytes(344))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                gemms = stcsim.model_gemms(path)
        self.assertEqual(list(gemms["name"]), ["fc.weight"])
        messages = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
        self.assertTrue(any("tensor 'conv.weight' [2x3x3x3] not lowered" in m for m in messages),
                        messages)


if __name__ == "__main__":
    unittest.main()
