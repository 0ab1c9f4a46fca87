"""The README's Python example runs as printed (its first ```python block under
"## Python"), so the example a new user copies cannot rot."""

import contextlib
import io
import os
import re
import unittest

import support

support.require_pandas()


class ReadmeExampleTest(unittest.TestCase):
    def test_example_runs(self):
        with open(os.path.join(support.SOURCE_DIR, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        section = readme.split("\n## Python\n", 1)
        self.assertEqual(len(section), 2, "README.md has no '## Python' section")
        block = re.search(r"```python\n(.*?)```", section[1], re.S)
        self.assertIsNotNone(block, "no ```python block in README.md's Python section")
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block.group(1), "README.md (## Python)", "exec"), {})
        self.assertIn("speedup_vs_dense", printed.getvalue())
        self.assertIn("gpu.num_sms", printed.getvalue())


if __name__ == "__main__":
    unittest.main()
