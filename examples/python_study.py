"""A short study, notebook style: what does 2:4 sparsity buy on BERT-base's MLP layers,
on the A100 and the H100 presets, and on an A100 with half its SMs?

    PYTHONPATH=build/python /usr/bin/python3 examples/python_study.py

Each "# %%" block is a notebook cell. The whole study takes about five seconds.
"""

# %% The GPUs: two presets, and a variant of one made by overriding a parameter.
import stcsim

gpus = {
    "a100": stcsim.Config.preset("a100"),
    "h100": stcsim.Config.preset("h100"),
    "a100_54sm": stcsim.Config.preset("a100").set("gpu.num_sms", 54),
}
for name, cfg in gpus.items():
    sms = cfg.resolved()["hardware"]["gpu"]["params"]["num_sms"]
    print(f"{name:10s} {sms['value']} SMs (from {sms['from']})")

# %% The shapes: BERT-base's MLP layers at 8 sequences of 512 tokens, lowered in
# process (no simulation), the distinct shapes once each.
layers = stcsim.model_gemms("bert_base", batch=8, seq=512)
mlp = layers[layers["name"].str.contains("mlp")].drop_duplicates(["m", "n", "k"])
shapes = list(zip(mlp["m"], mlp["n"], mlp["k"]))
print("MLP shapes:", ", ".join(f"{m}x{n}x{k}" for m, n, k in shapes))

# %% Simulate: one run per GPU, 2:4-pruned weights on mma.sp; each GEMM also runs
# dense on the same GPU, so one run gives both times and the speedup's three factors.
rows = []
for gpu, cfg in gpus.items():
    ops = stcsim.run_gemms(cfg, shapes, pattern="2:4").ops
    ops["gpu"] = gpu
    rows.append(ops)

# %% The table: dense and 2:4 time per layer, the speedup and what bounds each run.
import pandas as pd

table = pd.concat(rows, ignore_index=True)
table["dense_us"] = table["dense_cycles"] / table["cycles"] * table["seconds"] * 1e6
table["sparse_us"] = table["seconds"] * 1e6
columns = ["gpu", "name", "dense_us", "sparse_us", "speedup_vs_dense",
           "reduction_factors.efficiency_ratio", "limiter"]
pd.set_option("display.width", 140)
print(table[columns].rename(columns={"reduction_factors.efficiency_ratio": "efficiency_ratio"})
      .to_string(index=False, float_format=lambda v: f"{v:.3f}"))

# %% A sweep: the same question over DRAM bandwidth, every point in its own process.
sweep = stcsim.sweep({
    "schema_version": 1, "name": "mlp_dram", "base": "a100",
    "vary": {"dram.bandwidth_gbps": [1000, 2039], "sparsity": ["dense", "2:4"]},
    "workloads": [f"{m}x{n}x{k}" for m, n, k in shapes],
}, jobs=2)
print(sweep.pivot_table(index=["workload", "dram.bandwidth_gbps"], columns="sparsity",
                        values="seconds").mul(1e6).round(1).to_string())
