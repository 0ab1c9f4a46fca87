"""Running the `stcsim` command line in a child process.

Why simulations run in a child `stcsim` and not in this process: SystemC elaborates one
design per process and cannot be reset, so a second run in the same process is not
possible. Forking this process instead, to run SystemC in the fork, would copy an
interpreter that may hold other threads (pandas and numpy start them) and the locks they
held at the fork, a known source of deadlocks, and would need the CLI's option handling
moved into a library for the fork to call. The `stcsim` binary is what sweeps already run
per point (sim/sweep/child_process.h): the child starts clean, checks its arguments with
the very code the command line uses, writes the stats.json the command line writes, and
costs about 20 ms of start-up per run. Its exit status and stderr say what went wrong:
2 is an input error (raised as InputError with the CLI's message, which names the file,
line, key or option and what was expected), anything else a SimulationError with the
status or signal and the end of stderr.
"""

import os
import shlex
import signal
import subprocess

from . import _stcsim

InputError = _stcsim.InputError


class SimulationError(RuntimeError):
    """A child `stcsim` failed other than by refusing its input (a crash, a signal)."""


def cli_path():
    """The `stcsim` binary runs use: $STCSIM_BIN, else the one built with this module."""
    path = os.environ.get("STCSIM_BIN") or _stcsim.cli_path
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise SimulationError(
            f"stcsim binary not found or not executable: {path} "
            "(build the `stcsim` target, or set STCSIM_BIN)")
    return path


def command_line(args):
    """The command as a shell would take it, for messages: `stcsim run --arch a100 ...`."""
    return "stcsim " + " ".join(shlex.quote(str(a)) for a in args)


def _stderr_message(stderr):
    lines = [line.removeprefix("stcsim: error: ") for line in stderr.strip().splitlines()]
    return "\n".join(lines)


def run_cli(args, ok_status=(0,)):
    """Runs `stcsim ARGS`; returns the CompletedProcess when its exit status is in
    ok_status, raises InputError (status 2) or SimulationError (anything else)."""
    argv = [cli_path(), *map(str, args)]
    # subprocess.run kills the child if this process is interrupted (KeyboardInterrupt).
    proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          errors="replace")
    if proc.returncode in ok_status:
        return proc
    message = _stderr_message(proc.stderr)
    if proc.returncode == 2:
        error = InputError(message or f"{command_line(args)}: exit status 2")
    elif proc.returncode < 0:
        name = signal.Signals(-proc.returncode).name
        tail = "\n".join(message.splitlines()[-20:])
        error = SimulationError(f"{command_line(args)}: killed by {name}"
                                + (f"\n{tail}" if tail else ""))
    else:
        tail = "\n".join(message.splitlines()[-20:])
        error = SimulationError(f"{command_line(args)}: exit status {proc.returncode}"
                                + (f"\n{tail}" if tail else ""))
    error.command = command_line(args)
    raise error
