#!/bin/sh
# vendor-js.sh: fetch the report page's JavaScript libraries from the npm
# registry at pinned versions into report/assets/vendor/, where report/page.go
# embeds them (go:embed) into every page:
#
#   @dagrejs/dagre     MIT  layered graph layout: the package graph, cycles, why-chains
#                           (its dist/dagre.min.js bundles @dagrejs/graphlib, MIT)
#   d3-hierarchy       ISC  the squarified treemap of the Downloads view
#
#   scripts/vendor-js.sh [--check]  (from the repository root; needs npm, tar and coreutils)
#
# --check writes nothing: it fails unless report/assets/vendor is exactly what
# the script would write.
#
# Each tarball is checked against the sha512 recorded below (npm's "integrity",
# `npm view PKG@VERSION dist.integrity`) before anything is unpacked. Each
# minified file is written with its libraries' LICENSE texts in a comment at
# its top (the page carries them: MIT and ISC want the notice in every copy)
# and without its sourceMappingURL comment (the page requests nothing); each
# LICENSE is also copied beside it and VERSIONS lists what was fetched. To
# update: change a version and its integrity here, run the script, run the
# browser tests (go test -count=1 -run InBrowser ./cmd/upkdeps).
set -eu

# name version integrity file-in-tarball (- for none: bundled in another) destination
libs='
@dagrejs/dagre 3.1.3 sha512-X4aUTwOReZvthaZWOVHqlJ52/ZdhZFEM4+Lh/uR4XooUSLE6p71bcy7MPGzYnNUcNh+nj+i/qJQpCMIdQnSmrg== package/dist/dagre.min.js dagre.min.js
@dagrejs/graphlib 4.0.6 sha512-Hjv7hbfmSBMP4nVXMFt4gusqWWHghQF0qNT4V5KHo4Jatvd+2L5VHKFnnIjXVuDnaHIRz7ZuHSnlf0RuZkOwWA== - dagre.min.js
d3-hierarchy 3.1.3 sha512-GRajN5ZcnEwYFWqqdzhG1qJ3+fDg6WWzk47TJg7ePY7yvYAgRfD2r1mUx+wviBOWuCwamCUzjwMSdato43jbGA== package/dist/d3-hierarchy.min.js d3-hierarchy.min.js
'

root=$(pwd)
vendor=$root/report/assets/vendor
[ -f "$root/report/page.go" ] || { echo "vendor-js.sh: run it from the repository root" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$vendor
[ "${1:-}" = --check ] && out=$tmp/check
mkdir -p "$out"
{
	echo "# The report page's vendored JavaScript, written by scripts/vendor-js.sh: do not edit."
	echo "# package version license integrity"
} >"$tmp/VERSIONS"

echo "$libs" | while read -r name version integrity file dest; do
	[ -n "$name" ] || continue
	dir=$tmp/$(echo "$name" | tr -d @ | tr / -)
	mkdir -p "$dir"
	(cd "$dir" && npm pack --silent "$name@$version" >/dev/null)
	tgz=$(ls "$dir"/*.tgz)
	# npm's integrity is the base64 of the digest; sha512sum prints hex.
	have=$(sha512sum "$tgz" | cut -d' ' -f1)
	want=$(printf %s "${integrity#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')
	if [ "$have" != "$want" ]; then
		echo "vendor-js.sh: $name@$version: tarball's sha512 is $have, want $want ($integrity)" >&2
		exit 1
	fi
	tar -xzf "$tgz" -C "$dir"
	license=$(sed -n 's/^ *"license": *"\([^"]*\)".*/\1/p' "$dir/package/package.json")
	cp "$dir/package/LICENSE" "$out/LICENSE.$(basename "$name")"
	{
		echo "$name $version ($license):"
		cat "$dir/package/LICENSE"
		echo
	} >>"$tmp/head.$dest"
	if [ "$file" != - ]; then
		grep -v -e '^//# sourceMappingURL=' -e '^/\*! For license information' "$dir/$file" >"$tmp/code.$dest"
	fi
	echo "$name $version $license $integrity" >>"$tmp/VERSIONS"
	echo "$name@$version ($license): ok"
done
for code in "$tmp"/code.*; do
	dest=${code#"$tmp/code."}
	if grep -q '\*/' "$tmp/head.$dest"; then
		echo "vendor-js.sh: a licence text of $dest closes a comment" >&2
		exit 1
	fi
	{
		echo '/*!'
		cat "$tmp/head.$dest"
		echo '*/'
		cat "$code"
	} >"$out/$dest"
done
cp "$tmp/VERSIONS" "$out/VERSIONS"
if [ "$out" != "$vendor" ]; then
	diff -r "$out" "$vendor" >/dev/null || { echo "vendor-js.sh: report/assets/vendor differs from the pinned libraries: run scripts/vendor-js.sh" >&2; exit 1; }
	echo "report/assets/vendor: as pinned"
fi
