#!/bin/sh
# roundtrip.sh SRCDIR: --emit=mir is an oracle over the whole suite.
#
# Every MIR file of the suite (testsuite/cases, testsuite/isa, testsuite/gpu,
# examples) is translated with the options its case's first line gives it
# (testsuite/cases.sh) or a macro line of the .at files names (the examples
# and the ISA probes); none for a file neither names. For every file
# that translates:
#   - --emit=mir with the same options succeeds, with no message;
#   - that MIR, translated with the same options, prints PTX byte-identical
#     to the original's (the MIR is written under the original's file name,
#     so the .file lines of --lineinfo and -g agree too), but for two names
#     the PTX takes from the MIR text's layout, which the canonical text
#     changes: a `.loc 1 L C` line names the MIR line (-g, --lineinfo; a loc
#     statement's places, .loc 2 and up, are compared), and brx.idx's
#     .branchtargets is named $$btOFFSET_N after its statement's byte
#     offset; both are compared with the number left out, and each case
#     that needs it is named (today ctl/brx and isa/brx, and core/debug,
#     dsl/loc and dsl/loc_func under -g and --lineinfo);
#   - --emit=mir of that MIR prints it again unchanged (a fixed point).
# A file that does not translate (the cases of diagnostics) is counted and
# left out; every file that translates is round-tripped. Scratch goes to
# roundtrip.d under the current directory.
# Prints one line per failure and the counts; exits 1 on any failure.
# ptxemit is the one on PATH.
set -u
srcdir=$1
work=`pwd`/roundtrip.d
rm -rf "$work" && mkdir -p "$work" || exit 1

# the PTX with the names taken from the MIR text's layout blanked
layout_free () {
  sed 's/^\([ 	]*\.loc[ 	]\{1,\}1[ 	]\).*/\1/; s/\$\$bt[0-9]*_/$$bt_/g' "$1"
}

# "PATH|OPTIONS" for every case and every macro line that names a MIR file,
# paths relative to SRCDIR; then every MIR file none names, with no options
{
  sh "$srcdir/testsuite/cases.sh" "$srcdir" |
    # what the assembler is asked (--cubin and its options) is not the MIR's
    awk '{ o = ""; for (i = 4; i <= NF; i++) if ($i != "--cubin" && $i !~ /^--ptxas-options=/) o = o (o != "" ? " " : "") $i
           print "testsuite/cases/" $1 ".mir|" o }' ||
    exit 1
  for at in "$srcdir"/testsuite/*.at; do
    awk '
      /^[ \t]*PX_(EXAMPLE|ISA_PROBE)\(\[/ {
        s = $0; sub(/^[ \t]*/, "", s)
        mac = s; sub(/\(.*/, "", mac)
        sub(/^[A-Z_]*\(\[/, "", s)
        name = s; sub(/\].*/, "", name)
        opts = ""
        if (s ~ /^[^]]*\], *\[/) { opts = s; sub(/^[^]]*\], *\[/, "", opts); sub(/\].*/, "", opts) }
        path = (mac == "PX_EXAMPLE" ? "examples/" : "testsuite/isa/") name
        print path ".mir|" opts
      }
    ' "$at"
  done
} | sed 's/ *$//' | sort -u >"$work/named"
(cd "$srcdir" && ls testsuite/cases/*/*.mir testsuite/isa/*.mir testsuite/gpu/*.mir examples/*.mir) |
  while read -r f; do grep -q "^$f|" "$work/named" || echo "$f|"; done >"$work/unnamed"
cat "$work/named" "$work/unnamed" | sort -u >"$work/cases"

n=0 ok=0 refused=0 fail=0 layout=0
failed () { echo "$f${opts:+ $opts}: $*"; fail=`expr $fail + 1`; }
while IFS='|' read -r f opts; do
  test -f "$srcdir/$f" || continue
  n=`expr $n + 1`
  d=$work/$n base=`basename "$f"`
  mkdir -p "$d/rt" && cp "$srcdir/$f" "$d/$base" || exit 1
  # the original: what does not translate is a diagnostics case
  (cd "$d" && ptxemit $opts "$base" -o orig.ptx) >/dev/null 2>&1 || { refused=`expr $refused + 1`; continue; }
  (cd "$d" && ptxemit --emit=mir $opts "$base" -o rt/"$base") 2>"$d/mir.err" ||
    { failed "--emit=mir fails:"; cat "$d/mir.err"; continue; }
  # warnings and remarks name the places of the text they read: only errors
  # would be a difference here
  (cd "$d/rt" && ptxemit $opts "$base" -o rt.ptx) 2>"$d/rt.err" ||
    { failed "its MIR does not translate:"; cat "$d/rt.err"; continue; }
  if ! cmp -s "$d/orig.ptx" "$d/rt/rt.ptx"; then
    layout_free "$d/orig.ptx" >"$d/orig.cmp" && layout_free "$d/rt/rt.ptx" >"$d/rt.cmp" || exit 1
    cmp -s "$d/orig.cmp" "$d/rt.cmp" ||
      { failed "its MIR translates to other PTX:"; diff "$d/orig.cmp" "$d/rt.cmp" | head -n 8; continue; }
    echo "$f${opts:+ $opts}: the same PTX but for the MIR text's line and offset numbers"
    layout=`expr $layout + 1`
  fi
  (cd "$d/rt" && ptxemit --emit=mir $opts "$base" -o again.mir) 2>"$d/again.err" &&
    cmp -s "$d/rt/$base" "$d/rt/again.mir" ||
    { failed "--emit=mir of its MIR is not that MIR:"; diff "$d/rt/$base" "$d/rt/again.mir" | head -n 8; continue; }
  ok=`expr $ok + 1`
done <"$work/cases"
echo "roundtrip: $n runs, $ok round-trip ($layout of them but for the text's line and offset numbers), $refused do not translate, $fail failed"
# a suite where nothing translates is a broken ptxemit, not a pass
test $fail -eq 0 && test $ok -gt 0
