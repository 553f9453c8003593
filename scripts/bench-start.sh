#!/bin/sh
# bench-start.sh: the cost of starting upkdeps: `upkdeps version` and
# `upkdeps check` on the demo install (testdata/demo), this tree's build
# beside a build of an older commit, in the same rounds (alternating, so
# both see the same load).
#
#   scripts/bench-start.sh [-r RUNS] [-n CALLS] [-b BASE]
#
#   -r  rounds (default 7)
#   -n  calls of a command timed together in one round (default 20): a
#       call takes a few milliseconds, below GNU time's 10 ms resolution,
#       so a round times n calls in a row and divides
#   -b  commit to compare with (default: the merge base with main, else HEAD~1)
#
# It reports, per command and binary, the median over the rounds of the
# CPU (user+sys) and wall time of one call and of the peak RSS (the
# largest call's, from GNU time, /usr/bin/time -v), and the ratios new/old
# of the medians. Needs go and git.
set -eu

runs=7 calls=20 base=
while getopts r:n:b: opt; do
	case $opt in
	r) runs=$OPTARG ;;
	n) calls=$OPTARG ;;
	b) base=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [-n CALLS] [-b BASE]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

cd "$(git rev-parse --show-toplevel)"
if [ -z "$base" ]; then
	base=$(git merge-base HEAD main 2>/dev/null || true)
	if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
		base=$(git rev-parse HEAD~1)
	fi
fi
/usr/bin/time -v true >/dev/null 2>&1 || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }
ini=$(pwd)/testdata/demo/System/Demo.ini
[ -f "$ini" ] || { echo "no demo install at $ini" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "building this tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +dirty)) and $(git rev-parse --short "$base")" >&2
go build -o "$work/new" ./cmd/upkdeps
mkdir "$work/src"
git archive "$base" | tar -x -C "$work/src"
(cd "$work/src" && go build -o "$work/old" ./cmd/upkdeps)

# calls BIN ARGS...: run the command $calls times in a row.
cat >"$work/calls" <<EOF
#!/bin/sh
i=0
while [ \$i -lt $calls ]; do "\$@" >/dev/null 2>&1 || true; i=\$((i + 1)); done
EOF
chmod +x "$work/calls"

# One line per round: command binary wall cpu rss_kib (wall and cpu of all calls).
for bin in old new; do "$work/calls" "$work/$bin" version; done # warm the page cache
for r in $(seq "$runs"); do
	for cmd in version check; do
		for bin in old new; do
			if [ "$cmd" = version ]; then
				set -- "$work/$bin" version
			else
				set -- "$work/$bin" check --no-progress --ini "$ini"
			fi
			/usr/bin/time -f "$cmd $bin %e %U %S %M" -o "$work/t" "$work/calls" "$@"
			cat "$work/t" >>"$work/all"
		done
	done
done

echo "version, and check on the demo; $runs rounds of $calls calls each, old = $(git rev-parse --short "$base"); load $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v calls="$calls" '
function stats(key, col,   i, n, v, t, j) {
	n = 0
	for (i = 1; i <= NR_; i++) if (k[i] == key) v[++n] = val[i, col]
	for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
	return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{ NR_ = NR; k[NR] = $1 " " $2; val[NR, 1] = $3 * 1000 / calls; val[NR, 2] = ($4 + $5) * 1000 / calls; val[NR, 3] = $6 / 1024 }
END {
	printf "%-8s %-4s %12s %12s %14s\n", "command", "bin", "wall ms/call", "cpu ms/call", "peak MiB"
	split("version check", cmds, " ")
	for (c = 1; c <= 2; c++) {
		for (b = 0; b < 2; b++) {
			bin = b == 0 ? "old" : "new"
			key = cmds[c] " " bin
			for (col = 1; col <= 3; col++) med[bin, col] = stats(key, col)
			printf "%-8s %-4s %12.2f %12.2f %14.1f\n", cmds[c], bin, med[bin, 1], med[bin, 2], med[bin, 3]
		}
		printf "%s new/old: wall %.2f  cpu %.2f  peak %.2f (medians)\n", cmds[c], med["new", 1] / med["old", 1], med["new", 2] / med["old", 2], med["new", 3] / med["old", 3]
	}
}' "$work/all"
