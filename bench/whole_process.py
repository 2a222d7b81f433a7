"""Timing whole processes, for the benchmarks that measure what a user waits for (start-up, printing)."""
from __future__ import annotations

import os
import subprocess
import time


def timed(commands: list[list[str]], runs: int, cwd: str) -> list[list[float]]:
    """Seconds of each run of each command; the commands take turns, so a busy spell of the machine
    weighs on all of them alike. One untimed run of each first (the disk cache, compiled .pyc files).
    Bytecode is kept, as a user's install keeps it."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    quiet = {"check": True, "cwd": cwd, "env": env, "stdout": subprocess.DEVNULL}
    for command in commands:
        subprocess.run(command, **quiet)
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for command, spent in zip(commands, times):
            started = time.perf_counter()
            subprocess.run(command, **quiet)
            spent.append(time.perf_counter() - started)
    return times
