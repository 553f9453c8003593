#!/usr/bin/env bash
# The steps of the upkdeps GitHub Action (action.yml), kept here so that a
# test (scripts/action_test.go) runs them outside GitHub.
#
#   action.sh install   downloads the release archive for the runner's OS and
#                       architecture, checks it against checksums.txt, unpacks
#                       the binary into $UPKDEPS_HOME/bin and adds that to
#                       $GITHUB_PATH.
#   action.sh run       runs each command of $UPKDEPS_COMMANDS (check, order)
#                       with --format sarif, writing $UPKDEPS_SARIF_DIR/CMD.sarif,
#                       and writes sarif-dir and exit-code to $GITHUB_OUTPUT.
#
# Environment (the action's inputs; GitHub sets RUNNER_* and GITHUB_*):
#   UPKDEPS_VERSION      release tag (v1.2.3) or "latest"
#   UPKDEPS_RELEASES     where release assets are: .../releases/download (default
#                        https://github.com/upkdeps/upkdeps/releases/download); a
#                        file:// URL works too
#   UPKDEPS_HOME         install folder (default $RUNNER_TEMP/upkdeps)
#   UPKDEPS_INI          the game's ini (or its folder), relative to the workspace
#   UPKDEPS_COMMANDS     commands to run, space-separated (default "check order")
#   UPKDEPS_ARGS         more arguments for every command (e.g. --game ut99)
#   UPKDEPS_CHECK_ARGS   more arguments for check only (e.g. --baseline b.json)
#   UPKDEPS_SARIF_DIR    where the SARIF files go (default $RUNNER_TEMP/upkdeps-sarif)
#   RUNNER_OS            Linux, Windows or macOS;  RUNNER_ARCH  X64, X86, ARM64 or ARM
set -euo pipefail

die() { echo "upkdeps action: $*" >&2; exit 2; }

: "${RUNNER_TEMP:=${TMPDIR:-/tmp}}"
: "${UPKDEPS_HOME:=$RUNNER_TEMP/upkdeps}"
: "${UPKDEPS_RELEASES:=https://github.com/upkdeps/upkdeps/releases/download}"
: "${GITHUB_PATH:=/dev/null}"
: "${GITHUB_OUTPUT:=/dev/null}"

# target prints the goreleaser os_arch of the runner (.goreleaser.yaml).
target() {
	local os arch
	case "${RUNNER_OS:-$(uname -s)}" in
	Linux) os=linux ;;
	Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
	macOS | Darwin) os=darwin ;;
	*) die "unsupported runner OS ${RUNNER_OS:-$(uname -s)}" ;;
	esac
	case "${RUNNER_ARCH:-$(uname -m)}" in
	X64 | x86_64 | amd64) arch=amd64 ;;
	X86 | i386 | i686) arch=386 ;;
	ARM64 | arm64 | aarch64) arch=arm64 ;;
	ARM | armv7l | armv7) arch=armv7 ;;
	*) die "unsupported runner architecture ${RUNNER_ARCH:-$(uname -m)}" ;;
	esac
	case "$os/$arch" in
	windows/amd64 | windows/386 | windows/arm64 | linux/amd64 | linux/arm64 | linux/armv7 | darwin/amd64 | darwin/arm64) ;;
	*) die "no release for $os/$arch" ;;
	esac
	echo "${os}_${arch}"
}

fetch() { # URL FILE
	curl -fsSL --retry 3 -o "$2" "$1" || die "cannot download $1"
}

sha256() {
	if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

install() {
	local version="${UPKDEPS_VERSION:-latest}" tgt ext archive tmp want have
	if [ "$version" = latest ]; then
		version=$(curl -fsSL https://api.github.com/repos/upkdeps/upkdeps/releases/latest |
			sed -n 's/.*"tag_name": *"\([^"]*\)".*/\1/p' | head -1)
		[ -n "$version" ] || die "cannot find the latest release"
	fi
	case "$version" in v*) ;; *) die "version $version: want a tag such as v1.2.3, or latest" ;; esac
	tgt=$(target)
	ext=tar.gz
	case "$tgt" in windows_*) ext=zip ;; esac
	archive="upkdeps_${version#v}_${tgt}.${ext}"
	tmp=$(mktemp -d)
	fetch "$UPKDEPS_RELEASES/$version/$archive" "$tmp/$archive"
	fetch "$UPKDEPS_RELEASES/$version/checksums.txt" "$tmp/checksums.txt"
	want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/checksums.txt")
	[ -n "$want" ] || die "checksums.txt of $version has no line for $archive"
	have=$(sha256 "$tmp/$archive")
	[ "$want" = "$have" ] || die "$archive: sha256 $have, checksums.txt says $want"
	mkdir -p "$tmp/x" "$UPKDEPS_HOME/bin"
	if [ "$ext" = zip ]; then
		unzip -q -o "$tmp/$archive" -d "$tmp/x"
	else
		tar -xzf "$tmp/$archive" -C "$tmp/x"
	fi
	local bin=upkdeps
	case "$tgt" in windows_*) bin=upkdeps.exe ;; esac
	[ -f "$tmp/x/$bin" ] || die "$archive has no $bin"
	mv -f "$tmp/x/$bin" "$UPKDEPS_HOME/bin/$bin"
	chmod +x "$UPKDEPS_HOME/bin/$bin"
	rm -rf "$tmp"
	echo "$UPKDEPS_HOME/bin" >>"$GITHUB_PATH"
	echo "upkdeps $version ($tgt) installed in $UPKDEPS_HOME/bin"
}

run() {
	local dir="${UPKDEPS_SARIF_DIR:-$RUNNER_TEMP/upkdeps-sarif}" worst=0 code cmd bin
	bin=$(command -v upkdeps || true)
	[ -n "$bin" ] || bin="$UPKDEPS_HOME/bin/upkdeps"
	mkdir -p "$dir"
	local -a args=()
	[ -n "${UPKDEPS_INI:-}" ] && args+=(--ini "$UPKDEPS_INI")
	# shellcheck disable=SC2206 # word splitting of the extra arguments is wanted
	[ -n "${UPKDEPS_ARGS:-}" ] && args+=($UPKDEPS_ARGS)
	for cmd in ${UPKDEPS_COMMANDS:-check order}; do
		local -a extra=()
		case "$cmd" in
		check)
			# shellcheck disable=SC2206
			[ -n "${UPKDEPS_CHECK_ARGS:-}" ] && extra=($UPKDEPS_CHECK_ARGS)
			;;
		order) ;;
		*) die "command $cmd: the action runs check and order" ;;
		esac
		code=0
		"$bin" "$cmd" "${args[@]}" "${extra[@]}" --format sarif --root-dir "${GITHUB_WORKSPACE:-$PWD}" >"$dir/$cmd.sarif" || code=$?
		echo "upkdeps $cmd: exit $code ($dir/$cmd.sarif)"
		# 2 is a usage or operational error: no SARIF worth uploading.
		[ "$code" -ne 2 ] || exit 2
		[ "$code" -le "$worst" ] || worst=$code
	done
	{
		echo "sarif-dir=$dir"
		echo "exit-code=$worst"
	} >>"$GITHUB_OUTPUT"
}

case "${1:-}" in
install) install ;;
run) run ;;
*) die "usage: action.sh install|run" ;;
esac
