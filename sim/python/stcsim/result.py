"""The result of one `stcsim run`: its stats.json as a dict, and tables of it."""


def _frame(records):
    import pandas  # imported when a table is asked for, so `import stcsim` stays light

    # Nested stats (utilization.tensor, mapping.cta_m, ...) become dotted column names;
    # stats.json's keys come sorted, so what names a row is moved to the front.
    frame = pandas.json_normalize(records)
    first = [c for c in _LEADING_COLUMNS if c in frame.columns]
    return frame[first + [c for c in frame.columns if c not in first]]


_LEADING_COLUMNS = ["name", "variant", "pattern", "m", "n", "k", "batch", "dtype", "cycles",
                    "seconds", "tflops", "limiter"]


class Result:
    """stats: stats.json as a nested dict (README, "Stats glossary"); ops, variants:
    pandas DataFrames with a row per GEMM / per pruning variant; command: the
    `stcsim run` line that reproduces the run."""

    def __init__(self, stats, command):
        self.stats = stats
        self.command = command

    @property
    def total(self):
        """The whole run (stats['total'])."""
        return self.stats["total"]

    @property
    def cycles(self):
        return self.stats["total"]["cycles"]

    @property
    def seconds(self):
        return self.stats["total"]["seconds"]

    @property
    def ops(self):
        """One row per GEMM, nested stats as dotted columns (utilization.tensor, ...)."""
        return _frame(self.stats["ops"])

    @property
    def variants(self):
        """One row per pruning variant of a model run with several; empty otherwise."""
        return _frame(self.stats.get("variants", []))

    @property
    def config(self):
        """The resolved config the run used, each value with its unit and source."""
        return self.stats["config"]

    def __repr__(self):
        t = self.total
        return (f"<stcsim.Result {self.stats.get('arch')}: {len(self.stats['ops'])} ops, "
                f"{t['cycles']:.0f} cycles, {t['tflops']:.1f} TFLOP/s>")
