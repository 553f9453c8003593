#!/usr/bin/env bash
# Checks the release configuration (.goreleaser.yaml).
#
#   scripts/release-check.sh          goreleaser check, then a snapshot build of the
#                                     host's target only (what CI runs)
#   scripts/release-check.sh --full   goreleaser check, then the whole snapshot
#                                     release: every archive and checksums.txt, each
#                                     archive verified (binary, README inside; the
#                                     binary's version, for the host's archive)
#
# goreleaser is installed from the Go module proxy at the pinned version when
# missing. The output goes to dist/ (ignored by git); --full leaves it there.
set -euo pipefail
cd "$(dirname "$0")/.."

GORELEASER_VERSION=v2.15.1
full=false
case "${1:-}" in
--full) full=true ;;
"") ;;
*) echo "usage: $0 [--full]" >&2; exit 2 ;;
esac

gr=$(command -v goreleaser || true)
if [ -z "$gr" ] || ! "$gr" --version 2>/dev/null | grep -q "${GORELEASER_VERSION#v}"; then
	GOFLAGS=-mod=mod go install "github.com/goreleaser/goreleaser/v2@$GORELEASER_VERSION"
	gr="$(go env GOPATH)/bin/goreleaser"
fi

"$gr" check

if ! $full; then
	"$gr" build --snapshot --clean --single-target --id upkdeps
	bin=$(find dist -type f \( -name upkdeps -o -name upkdeps.exe \) | head -1)
	[ -n "$bin" ] || { echo "no binary in dist/" >&2; exit 1; }
	"$bin" version
	"$bin" version | grep -q -- '-snapshot' || { echo "the snapshot binary does not print the snapshot version" >&2; exit 1; }
	exit 0
fi

"$gr" release --snapshot --clean --skip=publish
want="windows_amd64.zip windows_386.zip windows_arm64.zip linux_amd64.tar.gz linux_arm64.tar.gz linux_armv7.tar.gz darwin_amd64.tar.gz darwin_arm64.tar.gz"
fail=0
for suffix in $want; do
	a=$(ls dist/upkdeps_*_"$suffix" 2>/dev/null | head -1)
	if [ -z "$a" ]; then
		echo "missing archive: *_$suffix"; fail=1; continue
	fi
	grep -q "  $(basename "$a")\$" dist/checksums.txt || { echo "$a: not in checksums.txt"; fail=1; }
	case "$a" in
	*.zip) list=$(unzip -Z1 "$a") ;;
	*) list=$(tar -tzf "$a") ;;
	esac
	for f in README.md docs/check.md; do
		grep -qx "$f" <<<"$list" || { echo "$a: no $f inside"; fail=1; }
	done
	grep -Eqx 'upkdeps(\.exe)?' <<<"$list" || { echo "$a: no binary inside"; fail=1; }
	echo "ok $a"
done
(cd dist && sha256sum -c --quiet checksums.txt) || fail=1
exit $fail
