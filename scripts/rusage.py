#!/usr/bin/env python3
"""rusage.py: time commands by each child's own rusage, interleaved.

    scripts/rusage.py BIN1,BIN2[,...] RUNS ARGS...

Runs every binary with ARGS, RUNS rounds, one after another in each round
(so all see the same load), and prints per binary the medians of wall time
(ms), CPU (user+sys, ms, from wait4's rusage) and peak RSS (MiB, ru_maxrss).
For processes of a few milliseconds, where GNU time (scripts/bench-start.sh,
bench-server.sh) counts in 10 ms steps: the rusage figures of `version`, the
demo's check and the server's check in docs/check.md were taken with it.
The commands' output is discarded.
"""
import os
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bins, runs, args = sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3:]
    res = {b: [] for b in bins}
    for _ in range(runs):
        for b in bins:
            start = time.monotonic()
            p = subprocess.Popen([b] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, _, ru = os.wait4(p.pid, 0)
            wall = (time.monotonic() - start) * 1000
            res[b].append((wall, (ru.ru_utime + ru.ru_stime) * 1000, ru.ru_maxrss / 1024))
    for b in bins:
        med = [statistics.median(r[k] for r in res[b]) for k in range(3)]
        print("%s wall %.1f ms cpu %.1f ms peak %.1f MiB" % (b, *med))


if __name__ == "__main__":
    main()
