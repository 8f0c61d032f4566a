#!/bin/sh
# sweep.sh SRCDIR PTXEMIT PTXAS CACHE [JOBS]: the target sweep.
#
# Every MIR file the suite expects ptxemit to accept (PX_PTX_CASE,
# PX_ISEL_CASE, PX_EXAMPLE, PX_ISA_PROBE and the execution tests' kernels) is
# translated again for every target of data/targets.yaml, and ptxas judges each
# result:
#   - ptxemit accepts for target T: ptxas must assemble its output for T
#     (otherwise the verdict is "unsound");
#   - ptxemit refuses T: the PTX it prints for the case's own target, with
#     `.target T` and a `.version` ptxemit could have chosen for T, must be
#     refused by ptxas too (otherwise the verdict is a "false reject").
#     The versions tried are the case's own version raised to T's lowest and,
#     unless the case fixes its version (a `ptx X.Y` on its target line, or
#     --ptx), the highest version ptxemit knows; ptxas must refuse both.
# A case that fixes its version is translated for T with that version raised to
# T's lowest (--ptx); any other case lets ptxemit choose.
#
# ptxas's verdicts are kept in CACHE, one "KEY VERDICT" line each, KEY naming a
# hash of ptxas's version, the -arch given and a hash of the PTX text; only
# texts not in CACHE are given to ptxas, JOBS at a time. Several sweeps may
# share one CACHE at once (testsuite/sweepcache.sh says how). Prints the
# counts and every disagreement with ptxas's message; exits 1 on any
# disagreement, 77 when ptxas or a hash program is missing.
set -u
srcdir=$1 ptxemit=$2 ptxas=$3 cache=$4 jobs=${5:-2}
test -n "$ptxas" && test -x "$ptxas" || exit 77

. "$srcdir/testsuite/sweepcache.sh"
pick_hash
test -n "$hash" || { echo "sweep: no sha256sum, sha1sum or md5sum" >&2; exit 77; }

work=`pwd`/sweep.d
rm -rf "$work" && mkdir -p "$work/ptx" "$work/in" || exit 1
touch "$cache" || exit 1

# the targets, each with its lowest PTX ISA version; the highest version known
sed -n 's/^ *- *{name: *\(sm_[0-9a-z]*\), *sm: *[0-9]*, *ptx: *\([0-9.]*\).*/\1 \2/p' \
  "$srcdir/data/targets.yaml" >"$work/targets"
top=`sed -n '/^ptx_versions:/,/\]/p' "$srcdir/data/targets.yaml" |
  tr -c '0-9.\n' ' ' | tr ' ' '\n' | grep '^[0-9]' | tail -n 1`
ntargets=`wc -l <"$work/targets" | tr -d ' '`
test "$ntargets" -gt 0 && test -n "$top" || { echo "sweep: no targets read" >&2; exit 1; }

# the cases: "MIR-PATH [OPTIONS...]", paths relative to SRCDIR
{
  for at in "$srcdir"/testsuite/*.at; do
    awk '
      /^[ \t]*PX_(PTX|ISEL)_CASE\(\[/ {
        s = $0; sub(/^[ \t]*PX_[A-Z]*_CASE\(\[/, "", s)
        name = s; sub(/\].*/, "", name)
        opts = ""
        if (s ~ /^[^]]*\], *\[/) { opts = s; sub(/^[^]]*\], *\[/, "", opts); sub(/\].*/, "", opts) }
        print "testsuite/cases/" name ".mir", opts
      }
      /^[ \t]*PX_EXAMPLE\(\[/ { s = $0; sub(/^[^[]*\[/, "", s); sub(/\].*/, "", s); print "examples/" s ".mir" }
      /^[ \t]*PX_ISA_PROBE\(\[/ { s = $0; sub(/^[^[]*\[/, "", s); sub(/\].*/, "", s); print "testsuite/isa/" s ".mir" }
    ' "$at"
  done
  for k in "$srcdir"/testsuite/gpu/*.mir; do echo "testsuite/gpu/${k##*/}"; done
} | sed 's/ *$//' | sort -u >"$work/cases"
ncases=`wc -l <"$work/cases" | tr -d ' '`

# ptxas's -arch for a target (testsuite/ptxasarch.sh)
. "$srcdir/testsuite/ptxasarch.sh"

# v: the higher of two X.Y versions (no process: it runs once a translation)
ver_max () {
  if test $((${1%.*} * 100 + ${1#*.})) -ge $((${2%.*} * 100 + ${2#*.})); then v=$1; else v=$2; fi
}

# each target's -arch beside it: "TARGET LOWEST-PTX ARCH"
while read -r t tmin; do echo "$t $tmin `ptxas_arch "$t"`"; done <"$work/targets" >"$work/targets.arch"

# Translate every case for every target. The jobs list has a line
# "N KIND CASE TARGET" per translation, KIND acc (ptxemit accepted; ptxas judges
# ptx/N.ptx) or rej (ptxas judges ptx/N.ptx and, where it exists, ptx/N.top.ptx);
# "FILE ARCH" lines in asks name what ptxas is asked.
cd "$work" || exit 1
: >jobs; : >asks
n=0 c=0
while read -r mir opts; do
  c=$((c + 1))
  in=in/$c.mir
  cp "$srcdir/$mir" "$in" || exit 1
  # shellcheck disable=SC2086
  if ! "$ptxemit" $opts "$in" -o own.ptx 2>own.err; then
    echo "sweep: $mir: refused for its own target:" >&2
    cat own.err >&2
    exit 1
  fi
  own=`sed -n 's/^\.version \([0-9.]*\).*/\1/p' own.ptx`
  fixed=
  case " $opts " in *" --ptx="*) fixed=yes ;; esac
  grep '^[ 	]*target[ 	].*[ 	]ptx[ 	]' "$in" >/dev/null && fixed=yes
  rest=`echo " $opts" | sed -e 's/ --ptx=[^ ]*//' -e 's/ --target=[^ ]*//'`
  while read -r t tmin arch; do
    n=$((n + 1))
    ver_max "$own" "$tmin"
    popt=
    test -n "$fixed" && popt=--ptx=$v
    # shellcheck disable=SC2086
    if "$ptxemit" $rest $popt --target="$t" "$in" -o "ptx/$n.ptx" 2>"ptx/$n.err"; then
      echo "$n acc $mir $t" >>jobs
      echo "ptx/$n.ptx $arch" >>asks
    else
      sed -e "s/^\.target [a-z0-9_]*/.target $t/" -e "s/^\.version [0-9.]*/.version $v/" \
        own.ptx >"ptx/$n.ptx"
      echo "$n rej $mir $t" >>jobs
      echo "ptx/$n.ptx $arch" >>asks
      if test -z "$fixed" && test "$v" != "$top"; then
        sed "s/^\.version [0-9.]*/.version $top/" "ptx/$n.ptx" >"ptx/$n.top.ptx"
        echo "ptx/$n.top.ptx $arch" >>asks
      fi
    fi
  done <targets.arch
done <cases

# KEY of each question: ptxas's version hash, the -arch, the text's hash
pver=`{ "$ptxas" --version 2>&1; } | $hash | cut -c1-16`
cut -d' ' -f1 asks | xargs $hash | sed 's/^\([0-9a-f]*\) *\**\(.*\)/\2 \1/' >texthash
awk -v p="$pver" 'FILENAME == ARGV[1] { h[$1] = $2; next }
  { print $1, $2, p ":" $2 ":" h[$1] }' texthash asks >keys

# cache_verdicts and append_cache (the cache several sweeps may share)

# ptxas for the keys not in the cache, JOBS at a time
cache_verdicts >known
awk 'FILENAME == ARGV[1] { seen[$1] = 1; next }
  !($3 in seen) && !($3 in todo) { todo[$3] = 1; print $1, $2, $3 }' known keys >todo
nrun=`wc -l <todo | tr -d ' '`
: >new
if test "$nrun" -gt 0; then
  # shellcheck disable=SC2016
  xargs -P "$jobs" -n 3 sh -c '
    if "$0" -arch="$2" -c "$1" -o /dev/null >/dev/null 2>&1; then v=ok; else v=no; fi
    echo "$3 $v"' "$ptxas" <todo >new || exit 1
  test `wc -l <new` -eq "$nrun" || { echo "sweep: ptxas gave no verdict for some texts" >&2; exit 1; }
  append_cache new || exit 1
fi

# ptxas's verdicts against ptxemit's (this run's own answers first: another
# sweep may have written a disagreeing line for one of them meanwhile)
awk 'FILENAME == ARGV[1] || FILENAME == ARGV[2] { if (!($1 in verdict)) verdict[$1] = $2; next }
  { print $1, verdict[$3] }' new known keys >verdicts
awk -v nc="$ncases" -v nt="$ntargets" -v nrun="$nrun" '
  FILENAME == ARGV[1] { v[$1] = $2; next }
  {
    f = "ptx/" $1 ".ptx"; ftop = "ptx/" $1 ".top.ptx"
    if ($2 == "acc") {
      acc++
      if (v[f] == "ok") good_acc++
      else { bad++; print "unsound: " $3 " on " $4 ": ptxemit accepts it, ptxas refuses " f }
    } else {
      rej++
      if (v[f] == "ok" || v[ftop] == "ok") {
        fr++; print "false reject: " $3 " on " $4 ": ptxemit refuses it, ptxas accepts " (v[f] == "ok" ? f : ftop)
      } else good_rej++
    }
  }
  END {
    printf "sweep: %d cases, %d targets, %d verdicts: %d accepted and assembled, %d refused by both, %d unsound, %d false rejects (%d texts given to ptxas, the rest cached)\n",
      nc, nt, acc + rej, good_acc, good_rej, bad, fr, nrun
    exit (bad + fr) > 0
  }' verdicts jobs >report
st=$?
cat report
# each disagreement: ptxemit's and ptxas's words
awk '/^(unsound|false reject): / { print $NF }' report | while read -r f; do
  n=`echo "$f" | sed 's/^ptx\/\([0-9]*\).*/\1/'`
  t=`awk -v n="$n" '$1 == n { print $4 }' jobs`
  echo "--- $f (ptxemit: `head -n 1 "ptx/$n.err"`)"
  "$ptxas" -arch="`ptxas_arch "$t"`" -c "$f" -o /dev/null 2>&1 | head -n 3
done
exit $st
