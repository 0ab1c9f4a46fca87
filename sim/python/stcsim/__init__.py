"""stcsim from Python: configs, GEMMs, models, traces and sweeps on the cycle-level
simulator of dense and sparse tensor-core GPUs.

    import stcsim
    cfg = stcsim.Config.preset("a100").set("gpu.num_sms", 54)
    r = stcsim.run_gemm(cfg, 4096, 4096, 4096, pattern="2:4")
    print(r.cycles, r.ops[["name", "cycles", "speedup_vs_dense"]])

Configs, presets, components and workload lowering run in this process through the
simulator's own library (the `_stcsim` extension); each simulation runs in a child
`stcsim` (stcsim/cli.py explains why), so any number of runs fit in one script.
"""

from ._stcsim import Config, InputError, components, presets, trace_gemms
from ._stcsim import model_gemms as _model_gemms
from .cli import SimulationError, cli_path
from .result import Result
from .runs import run, run_gemm, run_gemms, run_model, run_trace
from .sweeps import sweep


def model_gemms(model, batch=None, seq=None, prune="dense", dtype="fp16"):
    """The GEMMs `run_model` would simulate for one pruning spec, as a DataFrame."""
    import pandas

    return pandas.DataFrame(_model_gemms(model, batch, seq, prune, dtype))


__all__ = [
    "Config", "InputError", "SimulationError", "Result", "presets", "components",
    "model_gemms", "trace_gemms", "run", "run_gemm", "run_gemms", "run_model", "run_trace",
    "sweep", "cli_path",
]
