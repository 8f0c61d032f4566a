#!/bin/sh
# sweep.sh SRCDIR PTXEMIT PTXAS CACHE [JOBS]: the target sweep.
#
# Every MIR file the suite expects ptxemit to accept (the cases with a .ptx or
# .isel expectation, with the options of their first line: testsuite/cases.sh;
# the examples and ISA probes of PX_EXAMPLE and PX_ISA_PROBE; the execution
# tests' kernels) is
# translated again for every target of data/targets.yaml (--max-errors=0, so
# that every line ptxemit refuses is named; --lineinfo, so that every PTX line
# names its MIR line), and ptxas judges every statement on its own:
#   - where ptxemit accepts the file for target T, ptxas must assemble every
#     line of its output for T (a line it refuses makes its statement
#     "unsound");
#   - where ptxemit refuses some lines for T, the PTX it prints for the
#     case's own target, with `.target T` and a `.version` ptxemit could have
#     chosen for T, is given to ptxas: every refused line's statement must be
#     refused there too (otherwise it is a "false reject"), and every other
#     statement accepted (otherwise it is "unsound": ptxemit accepts for T
#     what ptxas refuses). The versions tried are the case's own version
#     raised to T's lowest and, unless the case fixes its version (a `ptx
#     X.Y` on its target line, or --ptx), the highest version ptxemit knows; a
#     refused statement ptxas accepts at either is a false reject, an accepted
#     one it refuses at both is unsound.
# ptxas names every line its parser refuses; testsuite/ptxaslines.sh blanks
# those statements and asks again, for the checks of later phases, and each
# line is read back to its MIR line through the `.loc` before it.
# A case that fixes its version is translated for T with that version raised to
# T's lowest (--ptx); any other case lets ptxemit choose.
#
# ptxas's verdicts are kept in CACHE, one "KEY VERDICT" line each, KEY naming a
# hash of ptxas's version and options, the -arch given and a hash of the PTX
# text; only texts not in CACHE are given to ptxas, JOBS at a time. Several
# sweeps may share one CACHE at once (testsuite/sweepcache.sh says how).
# Prints the counts and every disagreement with ptxemit's message; exits 1 on
# any disagreement, 77 when ptxas or a hash program is missing.
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
. "$srcdir/testsuite/swept.sh"
swept_cases "$srcdir" >"$work/cases" || exit 1
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
# ptx/N.ptx) or rej (ptxemit refused the lines in ptx/N.no; ptxas judges
# ptx/N.ptx and, where it exists, ptx/N.top.ptx); "FILE ARCH" lines in asks
# name what ptxas is asked.
cd "$work" || exit 1
: >jobs; : >asks
n=0 c=0
while read -r mir opts; do
  c=$((c + 1))
  # named by its path, so that the text (and ptxas's cached verdict) does not
  # change when a case is added before it
  base=in/`echo "$mir" | tr '/' '_'`
  base=${base%.mir}
  in=$base.mir
  cp "$srcdir/$mir" "$in" || exit 1
  # shellcheck disable=SC2086
  if ! "$ptxemit" -j1 --lineinfo $opts "$in" -o "$base.ptx" 2>own.err; then
    echo "sweep: $mir: refused for its own target:" >&2
    cat own.err >&2
    exit 1
  fi
  own=`sed -n 's/^\.version \([0-9.]*\).*/\1/p' "$base.ptx"`
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
    if "$ptxemit" -j1 --max-errors=0 --lineinfo $rest $popt --target="$t" "$in" -o "ptx/$n.ptx" 2>"ptx/$n.err"; then
      echo "$n acc $mir $t $c" >>jobs
      echo "ptx/$n.ptx $arch" >>asks
    else
      sed -n 's/^[^:]*\.mir:\([0-9]*\):[0-9]*: error: \(.*\)/\1 \2/p' "ptx/$n.err" >"ptx/$n.no"
      test -s "ptx/$n.no" || echo "0 `head -n 1 "ptx/$n.err"`" >"ptx/$n.no"
      sed -e "s/^\.target [a-z0-9_]*/.target $t/" -e "s/^\.version [0-9.]*/.version $v/" \
        "$base.ptx" >"ptx/$n.ptx"
      echo "$n rej $mir $t $c" >>jobs
      echo "ptx/$n.ptx $arch" >>asks
      if test -z "$fixed" && test "$v" != "$top"; then
        sed "s/^\.version [0-9.]*/.version $top/" "ptx/$n.ptx" >"ptx/$n.top.ptx"
        echo "ptx/$n.top.ptx $arch" >>asks
      fi
    fi
  done <targets.arch
done <cases

# ptxas's verdicts (testsuite/sweepcache.sh); "FILE VERDICT" lines. A text
# it assembles under -c is asked again as a whole program where it is one
# (whole=yes): a refused function comes back as the line of its header.
whole=yes
judge_texts asks judged || exit 1
nrun=$judged

# each refused line of a text as its MIR line: "FILE MIRLINE" (0: a line
# outside the statements); a function refused as a whole (the line of its
# header) as "FILE MIRLINE FUNCTION-LINE" for each statement of it, in wholes
: >wholes
awk '$2 != "ok" { print $1, $2 }' judged | while read -r f v; do
  echo "$v" | sed 's/^no:\{0,1\}//' | tr ',' '\n' | grep . >lines
  test -s lines || { echo "$f 0"; continue; }
  w=; grep -Fx "$f" judged.whole >/dev/null && w=1
  awk -v f="$f" -v w="$w" 'FILENAME == ARGV[1] { bad[$1] = 1; next }
    w && /^\.((visible|weak) +\.)?(entry|func)/ { fn = (FNR in bad) ? FNR : 0; cur = 0; next }
    /^}/ { fn = 0 }
    /^[ \t]*\.loc / { cur = $3; if (fn) print f, cur, fn >> "wholes"; next }
    /^}/ || /^\.(visible|weak|entry|func)/ { cur = 0 }
    FNR in bad { print f, cur + 0 }' lines "$f"
done >refused

# the verdicts, statement by statement
awk -v nc="$ncases" -v nt="$ntargets" -v nrun="$nrun" '
  FILENAME == ARGV[1] { v[$1] = $2; next }
  FILENAME == ARGV[2] { bad[$1, $2] = 1; anybad[$1] = 1; next }
  FILENAME == ARGV[3] { whole[$1, $2] = $3; if (!(($1, $3) in wf)) { wf[$1, $3] = 1; wfs[$1] = wfs[$1] " " $3 } next }
  {
    f = "ptx/" $1 ".ptx"; ftop = "ptx/" $1 ".top.ptx"
    # the statements of the text: the MIR lines its .loc lines name
    delete stmt; ns = 0
    while ((getline l < f) > 0) if (l ~ /^[ \t]*\.loc /) { split(l, q, " "); if (!(q[3] in stmt)) { stmt[q[3]] = 1; ns++ } }
    close(f)
    if ($2 == "acc") {
      if (f in wfs) { unsound++; print "unsound: " $3 " on " $4 ": ptxemit accepts it, ptxas refuses the function at line" wfs[f] " of " f " as a whole program" }
      for (l in stmt) { if ((f, l) in bad) { unsound++; print "unsound: " $3 ":" l " on " $4 ": ptxemit accepts it, ptxas refuses it in " f } else acc++ }
      if ((f, 0) in bad) { unsound++; print "unsound: " $3 " on " $4 ": ptxemit accepts it, ptxas refuses a line outside the statements of " f }
      next
    }
    delete no
    nofile = "ptx/" $1 ".no"
    while ((getline l < nofile) > 0) { split(l, q, " "); m = l; sub(/^[0-9]+ /, "", m); if (!(q[1] in no)) no[q[1]] = m }
    close(nofile)
    top = (ftop in v)
    delete hit
    for (l in no) {
      if ((f, l) in whole) hit[whole[f, l]] = 1
      if ((f, l) in whole) refusedby = 1
      else if (l in stmt) refusedby = ((f, l) in bad) && (!top || (ftop, l) in bad)
      else refusedby = (f in anybad) && (!top || ftop in anybad)
      if (refusedby) rej++
      else { fr++; print "false reject: " $3 ":" l " on " $4 ": ptxemit refuses it (" no[l] "), ptxas accepts it in " (((f, l) in bad) || !(l in stmt) && (f in anybad) ? ftop : f) }
    }
    # an accepted statement is unsound where ptxas refuses it at every version
    # tried: ptxemit picks the version for T itself, which the version of the
    # case raised to the lowest of T may be below (cvt from e4m3x2 needs PTX
    # 8.1 on sm_89, 7.8 on sm_90)
    for (l in stmt) if (!(l in no)) {
      if ((f, l) in bad && (!top || (ftop, l) in bad)) { unsound++; print "unsound: " $3 ":" l " on " $4 ": ptxemit accepts it, ptxas refuses it in " f (top ? " and " ftop : "") }
      else acc++
    }
    # a function ptxas refuses as a whole program: ptxemit refuses a line of it
    if (f in wfs) { n = split(wfs[f], fl, " "); for (i = 1; i <= n; i++) if (!(fl[i] in hit)) {
      unsound++; print "unsound: " $3 " on " $4 ": ptxemit accepts every line of the function at line " fl[i] " of " f ", which ptxas refuses as a whole program" } }
  }
  END {
    printf "sweep: %d cases, %d targets, %d statement verdicts: %d accepted and assembled, %d refused by both, %d unsound, %d false rejects (%d texts given to ptxas, the rest cached)\n",
      nc, nt, acc + rej + unsound + fr, acc, rej, unsound, fr, nrun
    exit (unsound + fr) > 0
  }' judged refused wholes jobs >report
st=$?
cat report
exit $st
