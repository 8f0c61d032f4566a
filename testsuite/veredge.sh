#!/bin/sh
# veredge.sh SRCDIR PTXEMIT PTXAS CACHE [JOBS]: the PTX-version edges of the
# tables (the `ptx:` of every row and token window a case uses).
#
# The target sweep judges each case on every target with the .version ptxemit
# chooses, which is never below what a row claims; this proof asks one step
# below. For every case the sweep takes (testsuite/sweep.sh) whose version
# is not fixed, on its own target, with V the .version ptxemit chose and P
# the PTX ISA version before V (no lower than the target's lowest):
#   - ptxemit --ptx=P refuses some lines: ptxas, given the text ptxemit printed
#     for V with `.version P`, refuses the statements of exactly those lines
#     (one it accepts is a false reject, one more it refuses unsound; a line
#     outside the statements, such as a .b128 register's declaration, follows
#     from the statements and counts as none);
#   - ptxemit --ptx=P accepts the file (it may lower otherwise): ptxas
#     assembles what it prints.
# ptxas's verdicts are cached as the sweep's (testsuite/sweepcache.sh).
# Prints the counts and every disagreement; exits 1 on any, 77 without ptxas.
set -u
srcdir=$1 ptxemit=$2 ptxas=$3 cache=$4 jobs=${5:-2}
test -n "$ptxas" && test -x "$ptxas" || exit 77
. "$srcdir/testsuite/sweepcache.sh"
pick_hash
test -n "$hash" || { echo "veredge: no sha256sum, sha1sum or md5sum" >&2; exit 77; }
. "$srcdir/testsuite/ptxasarch.sh"
work=`pwd`/veredge.d
rm -rf "$work" && mkdir -p "$work/ptx" "$work/in" || exit 1
touch "$cache" || exit 1

sed -n 's/^ *- *{name: *\(sm_[0-9a-z]*\), *sm: *[0-9]*, *ptx: *\([0-9.]*\).*/\1 \2/p' \
  "$srcdir/data/targets.yaml" >"$work/targets"
sed -n '/^ptx_versions:/,/\]/p' "$srcdir/data/targets.yaml" | tr -c '0-9.\n' ' ' | tr ' ' '\n' |
  grep '^[0-9]' >"$work/versions"
# the sweep's cases (testsuite/swept.sh): a case with a .ptx or
# .isel expectation, with its first line's options (testsuite/cases.sh)
. "$srcdir/testsuite/swept.sh"
swept_cases "$srcdir" >"$work/cases" || exit 1

cd "$work" || exit 1
: >jobs; : >asks
n=0
while read -r mir opts; do
  case " $opts " in *" --ptx="*) continue ;; esac
  grep '^[ 	]*target[ 	].*[ 	]ptx[ 	]' "$srcdir/$mir" >/dev/null && continue
  n=$((n + 1))
  base=in/`echo "$mir" | tr '/' '_'`; base=${base%.mir}
  cp "$srcdir/$mir" "$base.mir" || exit 1
  # shellcheck disable=SC2086
  "$ptxemit" -j1 --lineinfo $opts "$base.mir" -o "$base.ptx" 2>/dev/null || continue
  v=`sed -n 's/^\.version \([0-9.]*\).*/\1/p' "$base.ptx"`
  t=`sed -n 's/^\.target \([a-z0-9_]*\).*/\1/p' "$base.ptx"`
  tmin=`awk -v t="$t" '$1 == t { print $2 }' targets`
  p=`awk -v v="$v" -v lo="$tmin" '$1 == v { print prev; exit } { prev = $1 }' versions`
  test -n "$p" && test -n "$tmin" || continue
  test $((${p%.*} * 100 + ${p#*.})) -ge $((${tmin%.*} * 100 + ${tmin#*.})) || continue
  arch=`ptxas_arch "$t"`
  # shellcheck disable=SC2086
  if "$ptxemit" -j1 --max-errors=0 --lineinfo $opts --ptx="$p" "$base.mir" -o "ptx/$n.ptx" 2>"ptx/$n.err"; then
    echo "$n acc $mir $t $p" >>jobs
  else
    sed -n 's/^[^:]*\.mir:\([0-9]*\):[0-9]*: error: \(.*\)/\1 \2/p' "ptx/$n.err" >"ptx/$n.no"
    test -s "ptx/$n.no" || echo "0 `head -n 1 "ptx/$n.err"`" >"ptx/$n.no"
    sed "s/^\.version [0-9.]*/.version $p/" "$base.ptx" >"ptx/$n.ptx"
    echo "$n rej $mir $t $p" >>jobs
  fi
  echo "ptx/$n.ptx $arch" >>asks
done <cases

judge_texts asks judged || exit 1
nrun=$judged

# each refused line as its MIR line, "FILE MIRLINE" (0: outside the statements)
awk '$2 != "ok" { print $1, $2 }' judged | while read -r f v; do
  echo "$v" | sed 's/^no:\{0,1\}//' | tr ',' '\n' | grep . >lines
  test -s lines || { echo "$f 0"; continue; }
  awk -v f="$f" 'FILENAME == ARGV[1] { bad[$1] = 1; next }
    /^[ \t]*\.loc / { cur = $3; next }
    /^}/ || /^\.(visible|weak|entry|func)/ { cur = 0 }
    FNR in bad { print f, cur + 0 }' lines "$f"
done >refused

awk -v nrun="$nrun" '
  FILENAME == ARGV[1] { bad[$1, $2] = 1; anybad[$1] = 1; if ($2 != 0) badl[$1] = badl[$1] " " $2; next }
  {
    f = "ptx/" $1 ".ptx"; ncase++
    if ($2 == "acc") {
      if (f in anybad) { unsound++; print "unsound: " $3 " on " $4 " at PTX " $5 ": ptxemit accepts it, ptxas refuses what it prints (" f ")" }
      else acc++
      next
    }
    delete no; nno = 0
    nofile = "ptx/" $1 ".no"
    while ((getline l < nofile) > 0) { split(l, q, " "); m = l; sub(/^[0-9]+ /, "", m); if (!(q[1] in no)) { no[q[1]] = m; nno++ } }
    close(nofile)
    # the statements of the text: the MIR lines its .loc lines name; a refused
    # line that is none (a directive, a parameter) is ptxas'"'"'s outside them
    delete stmt
    while ((getline l < f) > 0) if (l ~ /^[ \t]*\.loc /) { split(l, q, " "); stmt[q[3]] = 1 }
    close(f)
    for (l in no) {
      if ((f, l) in bad || (!(l in stmt) && ((f, 0) in bad))) rej++
      else { fr++; print "false reject: " $3 ":" l " on " $4 " at PTX " $5 ": ptxemit refuses it (" no[l] "), ptxas accepts it in " f }
    }
    nb = split(badl[f], bl, " ")
    for (i = 1; i <= nb; i++) if (!(bl[i] in no)) {
      unsound++; print "unsound: " $3 ":" bl[i] " on " $4 " at PTX " $5 ": ptxemit accepts it, ptxas refuses it in " f
    }
  }
  END {
    printf "veredge: %d cases one PTX version below ptxemit'"'"'s: %d accepted and assembled, %d lines refused by both, %d unsound, %d false rejects (%d texts given to ptxas, the rest cached)\n",
      ncase, acc, rej, unsound + 0, fr + 0, nrun
    exit (unsound + fr) > 0
  }' refused jobs >report
st=$?
cat report
exit $st
