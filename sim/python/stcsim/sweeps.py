"""Design-space sweeps through `stcsim sweep` (docs/sweeps.md): every point in its own
process, -j at a time, resumable when `out` is kept."""

import json
import os
import tempfile

from .cli import run_cli


def _read_results(out_dir):
    import pandas

    # results.json keeps numbers as numbers and varied words ("2:4") as words; its
    # column order, then `error`, which only failed rows carry.
    with open(os.path.join(out_dir, "results.json"), encoding="utf-8") as f:
        table = json.load(f)
    columns = list(table["columns"])
    columns += sorted({c for row in table["rows"] for c in row} - set(columns))
    return pandas.DataFrame(table["rows"], columns=columns)


def sweep(spec, jobs=None, out=None, shard=None, retry_failed=False, timeout=None):
    """Runs a sweep spec (a path, or a dict of the same fields) and returns its tidy table
    (one row per point and workload, docs/sweeps.md) as a DataFrame. Failed points are
    rows with status 'failed' and the child's error; an invalid spec raises InputError
    naming the line and key. A dict spec is written to a temporary file, so paths in it
    (a config `base`, a trace) must be absolute."""
    with tempfile.TemporaryDirectory(prefix="stcsim-sweep-") as tmp:
        if isinstance(spec, dict):
            # JSON is YAML: the spec file is the dict as JSON, named after the sweep.
            spec_path = os.path.join(tmp, f"{spec.get('name', 'sweep')}.yaml")
            with open(spec_path, "w", encoding="utf-8") as f:
                json.dump(spec, f, indent=1)
        else:
            spec_path = os.fspath(spec)
        out_dir = os.fspath(out) if out is not None else os.path.join(tmp, "out")
        args = ["sweep", spec_path, "--out", out_dir, "-q"]
        if jobs is not None:
            args += ["-j", jobs]
        if shard is not None:
            args += ["--shard", shard]
        if retry_failed:
            args.append("--retry-failed")
        if timeout is not None:
            args += ["--timeout", timeout]
        # Exit status 1: some points failed; the table holds them with their errors.
        run_cli(args, ok_status=(0, 1))
        return _read_results(out_dir)
