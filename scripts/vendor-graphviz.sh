#!/usr/bin/env bash
# vendor-graphviz.sh [--check]: writes third_party/go-graphviz, the pinned
# github.com/goccy/go-graphviz, from the Go module proxy: go mod download
# fetches the version (checked against the checksum database and the h1: sum
# below), its files are copied without testdata, _examples, .github and
# tests, third_party/go-graphviz.patch is applied (it loads the WebAssembly
# module on first use instead of in init functions, and moves its compilation
# cache out of the shared temporary folder: see the patch's
# internal/wasm/lazy.go), and its packages become packages of this module:
# go.mod and go.sum removed, imports renamed. (Not a replace directive in
# go.mod: go install ...@latest refuses a module that has one.) --check
# rebuilds it in a temporary folder and fails when the vendored tree differs.
set -euo pipefail
cd "$(dirname "$0")/.."

mod=github.com/goccy/go-graphviz
version=v0.2.10
sum='h1:jHu/1I0Iw0xIzzYk96Ous/ZeuD11Rt2oW8juHdIE30g='
dest=third_party/go-graphviz
patchfile=third_party/go-graphviz.patch

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# Outside this module: its replace directive names the vendored copy.
info=$(cd "$work" && GOFLAGS= GOWORK=off go mod download -json "$mod@$version")
dir=$(printf '%s\n' "$info" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
got=$(printf '%s\n' "$info" | sed -n 's/^[[:space:]]*"Sum": "\(.*\)",$/\1/p')
if [ "$got" != "$sum" ] || [ -z "$dir" ]; then
	echo "vendor-graphviz: $mod@$version has sum '$got', want $sum" >&2
	exit 1
fi

mkdir "$work/tree"
tar -C "$dir" -cf - --exclude=./testdata --exclude=./_examples --exclude=./.github \
	--exclude='*_test.go' --exclude='.git*' . | tar -C "$work/tree" -xf -
chmod -R u+w "$work/tree"
patch -s -p1 -d "$work/tree" <"$patchfile"
rm "$work/tree/go.mod" "$work/tree/go.sum"
new=github.com/upkdeps/upkdeps/$dest
find "$work/tree" -name '*.go' -exec sed -i.orig -e "s#\"$mod/#\"$new/#; s#\"$mod\"#\"$new\"#" \
	-e "s#^\(//go:linkname [^ ]* \)$mod/#\1$new/#" {} +
find "$work/tree" -name '*.go.orig' -exec rm {} +
gofmt -w "$work/tree" # the imports sorted again

if [ "${1:-}" = "--check" ]; then
	if ! diff -r "$work/tree" "$dest"; then
		echo "vendor-graphviz: $dest differs from $mod@$version with $patchfile" >&2
		exit 1
	fi
	echo "vendor-graphviz: $dest is $mod@$version with $patchfile"
	exit 0
fi
rm -rf "$dest"
mv "$work/tree" "$dest"
echo "vendor-graphviz: wrote $dest ($mod@$version with $patchfile)"
