#!/usr/bin/env python3
"""rusage.py: time commands by each child's own rusage, interleaved.

    scripts/rusage.py BIN1,BIN2[,...] RUNS ARGS...

Runs every binary with ARGS, RUNS rounds, one after another in each round
(so all see the same load), and prints per binary the medians of wall time
(ms), CPU (user+sys, ms, from wait4's rusage) and peak RSS (MiB).
For processes of a few milliseconds, where GNU time (scripts/bench-start.sh,
bench-server.sh) counts in 10 ms steps: the rusage figures of `version`, the
demo's check and the server's check in docs/check.md were taken with it.
The commands' output is discarded.

The peak is not the child's own ru_maxrss: Linux keeps a process's peak
across execve, and a child of this script starts as a copy of the Python
interpreter (about 14 MiB), so any command under that read as 14 MiB (a C
"hello" did). Each round therefore also runs the binary under GNU time
(/usr/bin/time -f %M), whose child is forked from a small process, and
takes the peak from there; wall and CPU come from the direct run, which
GNU time's own work (about 1 ms) would inflate.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

GNU_TIME = "/usr/bin/time"


def peak_kib(argv, out):
    """peak_kib runs argv under GNU time and returns its peak RSS in KiB."""
    subprocess.run([GNU_TIME, "-f", "%M", "-o", out] + argv,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        return int(f.read().split()[-1])


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if not os.access(GNU_TIME, os.X_OK):
        sys.exit("rusage.py: needs GNU time at %s for the peak RSS (apt-get install time)" % GNU_TIME)
    bins, runs, args = sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3:]
    res = {b: [] for b in bins}
    out = tempfile.NamedTemporaryFile(prefix="rusage", delete=False).name
    try:
        for _ in range(runs):
            for b in bins:
                start = time.monotonic()
                p = subprocess.Popen([b] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                _, _, ru = os.wait4(p.pid, 0)
                wall = (time.monotonic() - start) * 1000
                res[b].append((wall, (ru.ru_utime + ru.ru_stime) * 1000, peak_kib([b] + args, out) / 1024))
    finally:
        os.unlink(out)
    for b in bins:
        med = [statistics.median(r[k] for r in res[b]) for k in range(3)]
        print("%s wall %.1f ms cpu %.1f ms peak %.1f MiB" % (b, *med))


if __name__ == "__main__":
    main()
