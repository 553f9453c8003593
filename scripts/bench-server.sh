#!/bin/sh
# bench-server.sh: time `upkdeps check` on a real install, this tree's
# build beside a build of an older commit and, when given, another tool's
# command, in the same rounds (alternating, so all see the same load).
#
#   scripts/bench-server.sh [-r RUNS] [-b BASE] [-j JOBS] INI [OTHER COMMAND...]
#
#   -r  runs of each (default 5)
#   -b  commit to compare with (default: the merge base with main, else HEAD~1)
#   -j  check's --jobs (default 2)
#   INI the install's ini; every command runs in the folder above its
#       folder (the install's root), so OTHER COMMAND may name it relative,
#       e.g. `ut2u package check-deps System/UT2004.ini`
#
# It reports min and median of wall time, CPU (user+sys) and peak RSS from
# GNU time (/usr/bin/time -v), and the ratios of the medians: new/old and
# new/other. Needs go and git.
set -eu

runs=5 base= jobs=2
while getopts r:b:j: opt; do
	case $opt in
	r) runs=$OPTARG ;;
	b) base=$OPTARG ;;
	j) jobs=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [-b BASE] [-j JOBS] INI [OTHER COMMAND...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-r RUNS] [-b BASE] [-j JOBS] INI [OTHER COMMAND...]" >&2; exit 2; }
ini=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
root=$(dirname "$(dirname "$ini")")

cd "$(git rev-parse --show-toplevel)"
if [ -z "$base" ]; then
	base=$(git merge-base HEAD main 2>/dev/null || true)
	if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
		base=$(git rev-parse HEAD~1)
	fi
fi
/usr/bin/time -v true >/dev/null 2>&1 || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "building this tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +dirty)) and $(git rev-parse --short "$base")" >&2
go build -o "$work/new" ./cmd/upkdeps
mkdir "$work/src"
git archive "$base" | tar -x -C "$work/src"
(cd "$work/src" && go build -o "$work/old" ./cmd/upkdeps)

short=$(git rev-parse --short "$base")
cd "$root"
bins="old new"
[ $# -eq 0 ] || bins="$bins other"
# Warm the page cache once with each.
for bin in $bins; do
	if [ "$bin" = other ]; then "$@" >/dev/null 2>&1 || true
	else "$work/$bin" check --no-progress --jobs "$jobs" --ini "$ini" >/dev/null 2>&1 || true; fi
done
for r in $(seq "$runs"); do
	for bin in $bins; do
		if [ "$bin" = other ]; then
			/usr/bin/time -f "$bin %e %U %S %M" -o "$work/t" "$@" >/dev/null 2>&1 || true
		else
			/usr/bin/time -f "$bin %e %U %S %M" -o "$work/t" \
				"$work/$bin" check --no-progress --jobs "$jobs" --ini "$ini" >/dev/null 2>&1 || true
		fi
		awk '{printf "%s %.2f %.2f %d\n", $1, $2, $3+$4, $5}' "$work/t" >>"$work/all"
	done
done

echo "check --jobs $jobs on $ini, $runs runs each, old = $short$([ $# -eq 0 ] || echo ", other = $*")"
awk '
function stats(key, col,   i, n, v, t, j) {
	n = 0
	for (i = 1; i <= NR_; i++) if (k[i] == key) v[++n] = val[i, col]
	for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
	mn[key, col] = v[1]
	med[key, col] = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{ NR_ = NR; k[NR] = $1; val[NR, 1] = $2; val[NR, 2] = $3; val[NR, 3] = $4 / 1024; seen[$1] = 1 }
END {
	printf "%-5s %18s %18s %20s\n", "bin", "wall s (min/med)", "cpu s (min/med)", "peak MiB (min/med)"
	for (b = 0; b < 3; b++) {
		bin = b == 0 ? "old" : b == 1 ? "new" : "other"
		if (!seen[bin]) continue
		for (c = 1; c <= 3; c++) stats(bin, c)
		printf "%-5s %8.2f / %-7.2f %8.2f / %-7.2f %9.1f / %-8.1f\n", bin, mn[bin,1], med[bin,1], mn[bin,2], med[bin,2], mn[bin,3], med[bin,3]
	}
	printf "new/old: wall %.2f  cpu %.2f  peak %.2f (medians)\n", med["new",1]/med["old",1], med["new",2]/med["old",2], med["new",3]/med["old",3]
	if (seen["other"]) printf "new/other: wall %.2f  cpu %.2f  peak %.2f (medians)\n", med["new",1]/med["other",1], med["new",2]/med["other",2], med["new",3]/med["other",3]
}' "$work/all"
