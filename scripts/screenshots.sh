#!/bin/sh
# screenshots.sh: redraw the README's pictures of the demo install in docs/:
# the report page's package graph, cycles and downloads views (headless
# Chromium, one process per picture) and `graph`'s diagram of the whole
# demo install (Graphviz's dot).
#
#   scripts/screenshots.sh            (from the repository root)
#
# Needs go, Graphviz's dot and chromium (UPKDEPS_CHROME names another Chrome binary).
set -eu

root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chrome=${UPKDEPS_CHROME:-$(command -v chromium || command -v chromium-browser || command -v google-chrome)}

go build -o "$tmp/upkdeps" ./cmd/upkdeps
go run ./internal/demo/gendemo "$tmp/demo"
cd "$tmp/demo" # the page's title is the ini as given
"$tmp/upkdeps" report --no-progress --ini System/Demo.ini -o "$tmp/report.html" || [ $? -eq 1 ]
"$tmp/upkdeps" graph --no-progress --ini System/Demo.ini --format png -o "$root/docs/graph-demo.png" --force

shot() { # name fragment
	"$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=960,700 \
		--screenshot="$root/docs/$1" "file://$tmp/report.html$2" 2>/dev/null
	echo "docs/$1"
}
shot report-graph.png '#/pkg/DemoGame'
shot report-cycle.png '#/cycles'
shot report-downloads.png '#/downloads'
