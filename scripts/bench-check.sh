#!/bin/sh
# bench-check.sh: time `upkdeps check` on the generated benchmark install
# with 1 and 2 workers, this tree's build beside a build of an older commit,
# in the same run (alternating, so both see the same machine load).
#
#   scripts/bench-check.sh [-n PACKAGES] [-r RUNS] [-b BASE] [-c] [-f] [DIR]
#
#   -n  packages of the install (default 20000)
#   -r  runs of each binary and worker count (default 5)
#   -c  cold: before every run, drop the install's files from the page
#       cache (posix_fadvise DONTNEED on each file, through python3), as a
#       server's first check after its files were written finds them
#   -f  also time the raw-read floor in the same rounds: every package file
#       opened, read once up to 64 KiB, closed, on as many goroutines
#       (internal/demo/rawread), and print check's ratios to it
#   -b  commit to compare with (default: the merge base with main, else HEAD~1)
#   DIR where the install is (written by internal/demo/genbench when it is
#       not there; default $TMPDIR/upkdeps-bench-N)
#
# It reports min and median of wall time, CPU (user+sys) and peak RSS from
# GNU time (/usr/bin/time -v, installed with apt-get when missing), and the
# ratios new/old of the medians. Needs go and git.
set -eu

n=20000 runs=5 base= cold= floor=
while getopts n:r:b:cf opt; do
	case $opt in
	c) cold=1 ;;
	f) floor=1 ;;
	n) n=$OPTARG ;;
	r) runs=$OPTARG ;;
	b) base=$OPTARG ;;
	*) echo "usage: $0 [-n PACKAGES] [-r RUNS] [-b BASE] [-c] [-f] [DIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
dir=${1:-${TMPDIR:-/tmp}/upkdeps-bench-$n}

root=$(git rev-parse --show-toplevel)
cd "$root"
if [ -z "$base" ]; then
	base=$(git merge-base HEAD main 2>/dev/null || true)
	if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
		base=$(git rev-parse HEAD~1)
	fi
fi

if ! [ -x /usr/bin/time ] || ! /usr/bin/time -v true >/dev/null 2>&1; then
	echo "installing GNU time" >&2
	if [ "$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi
	$sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq time >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "building this tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +dirty)) and $(git rev-parse --short "$base")" >&2
go build -o "$work/new" ./cmd/upkdeps
[ -z "$floor" ] || go build -o "$work/floor" ./internal/demo/rawread
mkdir "$work/src"
git archive "$base" | tar -x -C "$work/src"
(cd "$work/src" && go build -o "$work/old" ./cmd/upkdeps)

if ! [ -f "$dir/System/Bench.ini" ]; then
	echo "writing a $n-package install to $dir" >&2
	go run ./internal/demo/genbench -n "$n" "$dir"
fi
ini=$dir/System/Bench.ini
# Warm the page cache once with each binary.
"$work/new" check --no-progress --ini "$ini" >/dev/null 2>&1 || true
"$work/old" check --no-progress --ini "$ini" >/dev/null 2>&1 || true

# drop removes the install's files from the page cache (-c).
drop() {
	[ -n "$cold" ] || return 0
	find "$dir" -type f -print0 | python3 -c '
import os, sys
for p in sys.stdin.buffer.read().split(b"\0"):
    if p:
        fd = os.open(p, os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)'
}

# One line per run: binary jobs wall cpu rss_kib
for r in $(seq "$runs"); do
	for jobs in 1 2; do
		for bin in old new ${floor:+floor}; do
			drop
			if [ "$bin" = floor ]; then
				/usr/bin/time -f "$bin $jobs %e %U %S %M" -o "$work/t" \
					"$work/floor" -j "$jobs" "$dir" >/dev/null 2>&1 || true
			else
				/usr/bin/time -f "$bin $jobs %e %U %S %M" -o "$work/t" \
					"$work/$bin" check --no-progress --jobs "$jobs" --ini "$ini" >/dev/null 2>&1 || true
			fi
			awk '{printf "%s %s %.2f %.2f %d\n", $1, $2, $3, $4+$5, $6}' "$work/t" >>"$work/all"
		done
	done
done

echo "check on $n packages ($ini), $runs runs each$([ -n "$cold" ] && echo ', cold (page cache dropped before each run)'), old = $(git rev-parse --short "$base")"
awk '
function stats(key, col,   i, n, v, t, j) {
	n = 0
	for (i = 1; i <= NR_; i++) if (k[i] == key) v[++n] = val[i, col]
	for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
	mn[key, col] = v[1]
	med[key, col] = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{ NR_ = NR; k[NR] = $1 " " $2; val[NR, 1] = $3; val[NR, 2] = $4; val[NR, 3] = $5 / 1024 }
END {
	printf "%-5s %-4s %18s %18s %20s\n", "bin", "jobs", "wall s (min/med)", "cpu s (min/med)", "peak MiB (min/med)"
	for (jobs = 1; jobs <= 2; jobs++) {
		for (b = 0; b < 3; b++) {
			bin = b == 0 ? "old" : b == 1 ? "new" : "floor"; key = bin " " jobs
			if (b == 2 && !fl) continue
			for (c = 1; c <= 3; c++) stats(key, c)
			printf "%-5s %-4d %8.2f / %-7.2f %8.2f / %-7.2f %9.0f / %-8.0f\n", bin, jobs, mn[key,1], med[key,1], mn[key,2], med[key,2], mn[key,3], med[key,3]
		}
		o = "old " jobs; w = "new " jobs
		printf "new/old jobs=%d: wall %.2f  cpu %.2f  peak %.2f (medians)\n", jobs, med[w,1]/med[o,1], med[w,2]/med[o,2], med[w,3]/med[o,3]
		f = "floor " jobs
		if (fl) printf "new/floor jobs=%d: wall %.2f  cpu %.2f (medians)\n", jobs, med[w,1]/med[f,1], med[w,2]/med[f,2]
	}
}' fl="$floor" "$work/all"
