#!/usr/bin/env python3
"""Whole-process cost of two commands, run alternately A B A B ... after warm-up runs (tools/cute_bench/README.md).
For each run: wall time (spawn to reap), CPU time (user + system of the reaped child) and minor page faults
(getrusage of the child, os.wait4); then peak resident memory from GNU time's %M over 5 more runs of each
(a child's own maximum counts the Python process it was forked from, GNU time's does not). Prints medians and
the median of the pair-by-pair ratios; --json writes every run. --sync flushes every file system before each
run, untimed: on ext4 (data=ordered) a program's fsync commits the journal with every dirty block in it, so
without it one side's fsync would also write what the other side wrote just before and did not sync.
  paired.py [-n PAIRS] [--warmup N] [--sync] [--json FILE] 'COMMAND A' 'COMMAND B'   (each split like a shell line)"""
import argparse, json, os, shlex, statistics, subprocess, sys, tempfile, time


def run(argv, sync=False):
    if sync:
        os.sync()
    t0 = time.monotonic_ns()
    child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = (time.monotonic_ns() - t0) / 1e6
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"exit {os.waitstatus_to_exitcode(status)}: {shlex.join(argv)}")
    return {"wall_ms": wall, "cpu_ms": (usage.ru_utime + usage.ru_stime) * 1e3, "faults": usage.ru_minflt}


def peak_kib(argv):
    with tempfile.NamedTemporaryFile("r") as f:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f.name] + argv, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return int(f.read().split()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("--sync", action="store_true")
    ap.add_argument("a")
    ap.add_argument("b")
    o = ap.parse_args()
    a, b = shlex.split(o.a), shlex.split(o.b)
    for _ in range(o.warmup):
        run(a, o.sync), run(b, o.sync)
    runs = [(run(a, o.sync), run(b, o.sync)) for _ in range(o.n)]
    for i in range(min(5, o.n)):
        runs[i][0]["peak_kib"], runs[i][1]["peak_kib"] = peak_kib(a), peak_kib(b)
    out = {"a": o.a, "b": o.b, "pairs": o.n, "runs": runs, "median": {}}
    for key in ("cpu_ms", "wall_ms", "peak_kib", "faults"):
        with_key = [r for r in runs if key in r[0]]
        ma = statistics.median(r[0][key] for r in with_key)
        mb = statistics.median(r[1][key] for r in with_key)
        ratio = statistics.median(r[0][key] / r[1][key] for r in with_key if r[1][key])
        out["median"][key] = {"a": ma, "b": mb, "a/b": ratio}
        print(f"{key:9s} A {ma:10.2f}  B {mb:10.2f}  A/B {ratio:.2f}")
    if o.json:
        with open(o.json, "w") as f:
            json.dump(out, f, indent=1)


main()
