#!/bin/sh
# identity.sh PTXEMIT SRCDIR OUTDIR: what a refactor must not change.
#
# Runs PTXEMIT over every MIR file of SRCDIR's suite (testsuite/cases, with
# the options their first lines give, testsuite/isa, testsuite/gpu) and its
# examples, as PTX and as the --emit=isel dump, and over a mutation corpus
# made from each file of four lines or more (a line deleted, a line doubled,
# the file cut in half, two adjacent lines swapped), and writes standard
# output, standard error and the exit status of each run under OUTDIR. Run
# it with the binary built before a change and after it, and `diff -r` the
# two OUTDIRs: empty means the change left every output and every message as
# it was.
set -u
test $# -eq 3 || { echo "usage: identity.sh PTXEMIT SRCDIR OUTDIR" >&2; exit 2; }
px=$(realpath "$1") src=$(realpath "$2") out=$3
mkdir -p "$out" && out=$(realpath "$out") || exit 2
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
cd "$src" || exit 2
# "PATH|OPTIONS": the cases with their first lines' options, then every file
sh testsuite/cases.sh . | awk '{ o = ""; for (i = 4; i <= NF; i++) o = o " " $i
  print "testsuite/cases/" $1 ".mir|" o }' >"$work/list" || exit 2
find testsuite/cases testsuite/isa testsuite/gpu examples -name '*.mir' | sort |
  while read -r f; do grep -q "^$f|" "$work/list" || echo "$f|"; done >>"$work/list"
files=0 runs=0
while IFS='|' read -r f opts; do
  files=$((files + 1))
  name=$(echo "$f" | tr '/' '_')
  for emit in ptx isel; do
    # shellcheck disable=SC2086
    (cd "$(dirname "$f")" && "$px" $opts --emit=$emit "$(basename "$f")" -o -) \
      >"$out/$name.$emit.out" 2>"$out/$name.$emit.err"
    echo $? >"$out/$name.$emit.rc"
    runs=$((runs + 1))
  done
  lines=$(wc -l <"$f")
  test "$lines" -ge 4 || continue
  for k in 1 2 3 4; do
    l=$((lines * k / 5 + 1)) m=$work/$(basename "$f" .mir).m$k.mir
    case $k in
    1) sed "${l}d" "$f" ;;
    2) sed "${l}p" "$f" ;;
    3) head -c $(($(wc -c <"$f") / 2)) "$f" ;;
    4) sed -n "${l}{h;d};$((l + 1)){p;x;p;d};p" "$f" ;;
    esac >"$m"
    # shellcheck disable=SC2086
    (cd "$work" && "$px" $opts "$(basename "$m")" -o -) >"$out/$name.m$k.out" 2>"$out/$name.m$k.err"
    echo $? >"$out/$name.m$k.rc"
    runs=$((runs + 1))
  done
done <"$work/list"
echo "identity: $runs runs over $files files and their mutants, in $out"
