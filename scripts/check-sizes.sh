#!/usr/bin/env bash
# check-sizes.sh [REPO]: fail when a file tracked by git is bigger than
# the limit (1 MiB) and not on the allow-list, .ci/large-files.txt, whose
# lines are "PATH<TAB>why it must be in the repository". CI runs it so that
# no binary or generated install lands by mistake (an 11.8 MB binary did
# once, and stays in the history). LIMIT overrides the limit in bytes.
set -euo pipefail
repo=${1:-$(git rev-parse --show-toplevel)}
limit=${LIMIT:-1048576}
cd "$repo"
allow=.ci/large-files.txt
declare -A allowed=()
if [ -f "$allow" ]; then
	while IFS=$'\t' read -r path why; do
		case "$path" in '' | '#'*) continue ;; esac
		if [ -z "${why:-}" ]; then
			echo "$allow: $path has no reason (PATH<TAB>why)" >&2
			exit 1
		fi
		allowed[$path]=1
	done <"$allow"
fi
bad=0
while IFS= read -r -d '' path; do
	[ -f "$path" ] || continue
	size=$(wc -c <"$path")
	if [ "$size" -gt "$limit" ] && [ -z "${allowed[$path]:-}" ]; then
		echo "$path: $size bytes, over the $limit-byte limit and not in $allow" >&2
		bad=1
	fi
done < <(git ls-files -z)
for path in "${!allowed[@]}"; do
	if ! git ls-files --error-unmatch -- "$path" >/dev/null 2>&1; then
		echo "note: $allow lists $path, which is not tracked (remove the line)" >&2
	fi
done
if [ "$bad" = 1 ]; then
	echo "move the file out of the repository, or add it to $allow with the reason" >&2
	exit 1
fi
echo "no tracked file over $limit bytes outside $allow"
