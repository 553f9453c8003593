#!/usr/bin/env bash
# wine-test.sh [PKG...]: build the Windows test binaries of the packages and
# run them under Debian 12's wine 8.0: the Windows side of CI (.ci/run).
# Run it from the module root; with no PKG, every package that has tests.
#
# A copy of ../shared/windows/wine-test.sh, changed for CI: it lists every
# package itself, needs no -test.skip (the tests skip wine's artefacts
# themselves, each with its reason), and ends with the totals and every
# skipped test with its reason. Go 1.22+ binaries need two things wine 8
# lacks, which it supplies:
#   1. a stand-in bcryptprimitives.dll (windows/bcryptprimitives.c: ProcessPrng
#      from RtlGenRandom; the Go runtime refuses to start without it);
#   2. a build overlay of internal/syscall/windows/at_windows.go so that
#      os.RemoveAll (and so every t.TempDir cleanup) falls back to the old
#      delete call when wine 8 answers STATUS_NOT_IMPLEMENTED to
#      FileDispositionInformationEx. It touches the test build only.
#
# Env: ARCH=amd64|386 (default amd64; 386 needs wine32:i386)
#      WORK=<scratch dir> (default ${TMPDIR:-/tmp}/wine-test): the wine
#        prefix, the binaries and a log per package (WORK/bin/PKG.log)
#      WINE_SKIP=<-test.skip regexp> (default none)
#      EXCLUDE=<regexp> of package paths left out of the default list
#      TEST_FLAGS extra flags for every test binary (default -test.short)
# Exit status: 0 when every package built and passed; a failed test that
# passes when run again alone is listed as FLAKY at the end and does not
# fail the run. Failures and flakes are printed last, for a CI log's tail.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(pwd)
ARCH=${ARCH:-amd64}
WORK=${WORK:-${TMPDIR:-/tmp}/wine-test}
TEST_FLAGS=${TEST_FLAGS:--test.short}
WINE_SKIP=${WINE_SKIP:-}
if [ $# -gt 0 ]; then
	PKGS="$*"
else
	mod=$(go list -m)
	PKGS=$(go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./... |
		sed "s|^$mod\$|.|; s|^$mod/|./|" | grep -Ev "${EXCLUDE:-^\$}")
fi

case $ARCH in
amd64) CC=x86_64-w64-mingw32-gcc ENTRY=DllMain SYSDIR=system32 ;;
386) CC=i686-w64-mingw32-gcc ENTRY=_DllMain@12 SYSDIR=syswow64 ;;
*) echo "ARCH must be amd64 or 386" >&2; exit 2 ;;
esac

mkdir -p "$WORK/bin"
export WINEPREFIX="$WORK/prefix" WINEARCH=win64 WINEDEBUG=-all \
	WINEDLLOVERRIDES="bcryptprimitives=n,b;winemenubuilder.exe=d;mscoree,mshtml="

# 1. The shim: a DLL exporting ProcessPrng, no C runtime.
$CC -shared -O2 -s -nostdlib -e "$ENTRY" -Wl,--kill-at -Wl,--enable-stdcall-fixup \
	-o "$WORK/bcryptprimitives.dll" "$HERE/windows/bcryptprimitives.c" "$HERE/windows/bcryptprimitives.def" \
	-ladvapi32 -lkernel32 || exit 1

# 2. The prefix: made once; the runtime loads the DLL with
#    LOAD_LIBRARY_SEARCH_SYSTEM32, so it must sit in the prefix's system folder
#    (system32 for 64-bit, syswow64 for 32-bit), not beside the .exe.
if [ ! -d "$WINEPREFIX/drive_c/windows/$SYSDIR" ]; then
	wineboot -i >/dev/null 2>&1
	wineserver -w
fi
cp "$WORK/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/$SYSDIR/bcryptprimitives.dll" || exit 1

# 3. The overlay (skipped, with a warning, if the Go source no longer matches).
GOROOT=$(go env GOROOT)
AT="$GOROOT/src/internal/syscall/windows/at_windows.go"
OVERLAY=()
if grep -q '^		STATUS_NOT_SUPPORTED:     // the file system' "$AT"; then
	sed 's|^		STATUS_NOT_SUPPORTED:     // the file system.*|		STATUS_NOT_SUPPORTED, NTStatus(0xC0000002): // + STATUS_NOT_IMPLEMENTED (wine < 9)|' \
		"$AT" >"$WORK/at_windows.go"
	printf '{"Replace":{"%s":"%s"}}\n' "$AT" "$WORK/at_windows.go" >"$WORK/overlay.json"
	OVERLAY=(-overlay "$WORK/overlay.json")
else
	echo "warning: $AT changed; no overlay: t.TempDir cleanups will fail under wine 8" >&2
fi

# 4. Build and run each package's tests from its own folder, as go test does.
#    Counts are of top-level tests; "all" adds subtests and examples' runs.
status=0
start=$(date +%s)
: >"$WORK/skips.txt"
: >"$WORK/failed.txt"
: >"$WORK/flaky.txt"
# failures PKG LOG: each failed test (subtests too) with the lines it logged.
failures() {
	awk -v pkg="$1" '
		/^=== (RUN|NAME|CONT|PAUSE) / { cur = $3; n[cur] = 0; next }
		/^ +[^ ]+\.go:[0-9]+: / || /^ {8,}/ { if (n[cur] < 12) { line[cur, n[cur]++] = $0 }; next }
		/^ *--- FAIL: / { t = $3; printf "  %s %s:\n", pkg, t; for (i = 0; i < n[t]; i++) printf "      %s\n", line[t, i] }
	' "$2"
}
tp=0 tf=0 ts=0 ap=0 af=0 as=0
printf '%-28s %6s %6s %6s %6s %8s %8s\n' package result pass fail skip build_s run_s
for p in $PKGS; do
	name=$(echo "$p" | sed 's|^\./||; s|/|_|g')
	exe="$WORK/bin/$name.test.exe"
	log="$WORK/bin/$name.log"
	rm -f "$exe"
	t0=$(date +%s.%N)
	if ! GOOS=windows GOARCH=$ARCH go test "${OVERLAY[@]}" -c -o "$exe" "$p" >"$WORK/bin/$name.build.log" 2>&1; then
		printf '%-28s %6s\n' "$name" BUILD; status=1
		sed 's/^/    /' "$WORK/bin/$name.build.log" | head -20
		continue
	fi
	[ -f "$exe" ] || { printf '%-28s %6s\n' "$name" NOTEST; continue; }
	t1=$(date +%s.%N)
	(cd "$ROOT/$p" && timeout 1800 wine "$exe" $TEST_FLAGS -test.v -test.timeout=25m \
		${WINE_SKIP:+-test.skip "$WINE_SKIP"}) >"$log" 2>&1
	rc=$?
	t2=$(date +%s.%N)
	res=ok
	pass=$(grep -c -- '^--- PASS' "$log") fail=$(grep -c -- '^--- FAIL' "$log") skip=$(grep -c -- '^--- SKIP' "$log")
	if [ $rc != 0 ]; then
		res=FAIL
		# What each failed test logged, kept for the end of the output (CI
		# shows its tail), and for a crash or a timeout the log's last lines.
		failures "$name" "$log" >>"$WORK/failed.txt"
		[ "$fail" = 0 ] && tail -20 "$log" | sed "s|^|  $name (crashed or timed out) | " >>"$WORK/failed.txt"
		# Failed tests run once more, alone: one that passes then is listed
		# as flaky at the end, loudly, and does not fail the run; one that
		# fails again (or a crash) does.
		names=$(grep -E -- '^--- FAIL: ' "$log" | awk '{print $3}' | paste -sd'|' -)
		if [ -n "$names" ] && (cd "$ROOT/$p" && timeout 1800 wine "$exe" $TEST_FLAGS -test.v -test.timeout=25m \
			-test.run "^($names)\$" ${WINE_SKIP:+-test.skip "$WINE_SKIP"}) >"$log.rerun" 2>&1; then
			res=FLAKY
			echo "$name: $names failed, then passed when run again alone" >>"$WORK/flaky.txt"
		else
			status=1
		fi
	fi
	tp=$((tp + pass)) tf=$((tf + fail)) ts=$((ts + skip))
	ap=$((ap + $(grep -Ec -- '^ *--- PASS' "$log"))) af=$((af + $(grep -Ec -- '^ *--- FAIL' "$log")))
	as=$((as + $(grep -Ec -- '^ *--- SKIP' "$log")))
	printf '%-28s %6s %6d %6d %6d %8.1f %8.1f\n' "$name" "$res" "$pass" "$fail" "$skip" \
		"$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
	if [ $rc != 0 ]; then
		grep -E -- '^\s*--- FAIL' "$log" | sed 's/^/    /'
		[ "$fail" = 0 ] && tail -20 "$log" | sed 's/^/    | /' # a crash or a timeout
	fi
	# Each skipped test with the last line it logged (its t.Skip reason).
	awk -v pkg="$name" '
		/^=== (RUN|NAME|CONT|PAUSE) / { cur = $3; next }
		/^ +[^ ]+\.go:[0-9]+: / { sub(/^ +/, ""); msg[cur] = $0; next }
		/^ *--- SKIP: / { t = $3; printf "%s %s: %s\n", pkg, t, (t in msg ? msg[t] : "(no reason logged)") }
	' "$log" >>"$WORK/skips.txt"
done
wineserver -k 2>/dev/null # this prefix's wineserver only
printf '\nwine %s: top-level tests %d ran, %d passed, %d failed, %d skipped; with subtests %d ran, %d passed, %d failed, %d skipped; %d s\n' \
	"$ARCH" $((tp + tf + ts)) $tp $tf $ts $((ap + af + as)) $ap $af $as $(($(date +%s) - start))
if [ -s "$WORK/skips.txt" ]; then
	echo "skipped under wine:"
	sed 's/^/  /' "$WORK/skips.txt"
fi
# Last, so that the tail of a CI log shows them.
if [ -s "$WORK/flaky.txt" ]; then
	echo "FLAKY under wine (failed, then passed alone; the first run's messages are below):"
	sed 's/^/  /' "$WORK/flaky.txt"
fi
if [ -s "$WORK/failed.txt" ]; then
	echo "failed under wine (first run):"
	cat "$WORK/failed.txt"
fi
exit $status
