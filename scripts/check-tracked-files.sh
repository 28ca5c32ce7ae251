#!/usr/bin/env bash
# Fails when git tracks a build output: a file over 1 MB, or an executable
# binary (ELF, Mach-O, PE or a shebang-less file with the executable bit that
# is not text). A compiled program committed by mistake (`go build` in a
# package directory leaves one) is both, and nothing else needs to be.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
limit=$((1024 * 1024))
bad=0
while IFS= read -r -d '' path; do
	[ -f "$path" ] || continue
	size=$(stat -c %s -- "$path")
	if [ "$size" -gt "$limit" ]; then
		echo "tracked file over 1 MB: $path ($size bytes)"; bad=1; continue
	fi
	magic=$(head -c 4 -- "$path" | od -An -tx1 | tr -d ' \n')
	case "$magic" in
	7f454c46 | cffaedfe | cefaedfe | feedfacf | feedface | cafebabe | 4d5a*)
		echo "tracked executable binary: $path"; bad=1 ;;
	esac
done < <(git ls-files -z)
if [ "$bad" -ne 0 ]; then
	echo "Remove these from git (git rm --cached FILE) and ignore them in .gitignore."
	exit 1
fi
