#!/bin/sh
# tensorcombos.sh SRCDIR PTXEMIT PTXAS CACHE [JOBS]: every token combination of
# every variant of mma, mma.sp, wmma, wgmma and tcgen05 (and of the matrix
# copies ldmatrix, stmatrix and movmatrix) that `ptxemit --describe` lists is
# accepted by ptxemit and assembled by ptxas on the variant's lowest target
# and PTX ISA version.
#
# For each operation of those families (`ptxemit --list-ops`),
# testsuite/tensorcombos.awk reads `ptxemit --describe=OP` and writes one MIR
# statement per combination (an optional slot both empty and filled) into one
# module per target and PTX version. ptxemit translates each module
# (--max-errors=0: every line it refuses is reported; --lineinfo: each PTX
# line names its MIR line) and ptxas assembles the output for that target
# (every line it refuses is reported too). The same is done on every other
# target of each variant's window (its PTX version raised to the target's
# lowest). Each statement is also written with its modifier tokens in another
# order (ptxemit-mir(5): any order, PTX's relative order within a class of
# slots, the fixed tokens left out), which must print the same PTX.
# ptxas's verdicts on whole modules
# are kept in CACHE as the target sweep keeps them (testsuite/sweepcache.sh),
# so a second run asks ptxas only about modules that changed; JOBS ptxas run
# at once. The number of combinations written must equal the number the
# describe text lists: a variant whose operands the generator cannot write
# fails the test instead of being left out.
#
# Prints the counts and each combination refused, with the refusal; exits 1
# if any is refused or the counts differ, 77 without ptxas or a hash program.
set -u
srcdir=$1 ptxemit=$2 ptxas=$3 cache=$4 jobs=${5:-2}
test -n "$ptxas" && test -x "$ptxas" || exit 77
. "$srcdir/testsuite/sweepcache.sh"
pick_hash
test -n "$hash" || { echo "tensorcombos: no sha256sum, sha1sum or md5sum" >&2; exit 77; }
case $ptxemit in /*) ;; */*) ptxemit=`pwd`/$ptxemit ;; esac

work=`pwd`/combos.d
rm -rf "$work" && mkdir -p "$work/m" || exit 1
touch "$cache" || exit 1
cd "$work" || exit 1

# each target's lowest PTX ISA version
sed -n 's/^ *- *{name: *\(sm_[0-9a-z]*\), *sm: *[0-9]*, *ptx: *\([0-9.]*\).*/\1 \2/p' \
  "$srcdir/data/targets.yaml" >targets
# the descriptor builders are no instructions: their fields are properties the
# describe text does not list (tensor/idesc*, *_desc* test them)
"$ptxemit" --list-ops |
  awk '$1 ~ /^(mma|mma\..*|wmma\..*|wgmma\..*|tcgen05\..*|ldmatrix|stmatrix|movmatrix)$/ && $1 !~ /^(tcgen05\.idesc|tcgen05\.desc|wgmma\.desc)$/ { print $1 }' >ops
test -s ops && test -s targets || { echo "tensorcombos: no operations or targets read"; exit 1; }

# the statements: "MODULE LINE COMBINATION TEXT" (COMBINATION numbered per op)
: >lines; : >counts
while read -r op; do
  "$ptxemit" --describe="$op" >describe.txt || exit 1
  # modules are named by the operation, so their text (and ptxas's cached
  # verdict) does not change when an operation is added before it
  opi=`echo "$op" | tr -c 'A-Za-z0-9_\n' '_'`
  awk -v op="$op" -v opi="$opi" -v targets=targets -v out=m -f "$srcdir/testsuite/tensorcombos.awk" \
    describe.txt describe.txt >gen || exit 1
  grep -v '^count \|^unbuilt ' gen >>lines
  grep '^count \|^unbuilt ' gen >>counts
done <ops

# ptxemit: each module, with the lines it refuses blanked until it accepts it
# (in its twin too, which must then print the same PTX); "MODULE LINE MESSAGE"
: >emit.no; : >order.no
for mir in `ls m/*.mir | grep -v '\.any\.mir$\|\.w\.mir$'`; do
  base=${mir%.mir}
  n=0
  until "$ptxemit" --max-errors=0 --lineinfo "$mir" -o "$base.ptx" 2>"$base.err"; do
    sed -n 's/^[^:]*\.mir:\([0-9]*\):[0-9]*: error: \(.*\)/\1 \2/p' "$base.err" >"$base.refused"
    test -s "$base.refused" && test $n -lt 3 || {
      echo "tensorcombos: ptxemit refuses $mir outside the statements:"; cat "$base.err"; exit 1; }
    m=${base#m/}
    awk -v m="$m" '{ print m, $0 }' "$base.refused" >>emit.no
    cut -d' ' -f1 "$base.refused" | sort -u >"$base.nl"
    for f in "$mir" "$base.any.mir"; do
      awk 'FILENAME == ARGV[1] { no[$1] = 1; next } { print (FNR in no) ? "" : $0 }' \
        "$base.nl" "$f" >"$f.tmp" && mv "$f.tmp" "$f"
    done
    n=$((n + 1))
  done
  # the twin, its tokens in another order: the same PTX
  m=${base#m/}
  if "$ptxemit" --max-errors=0 "$base.any.mir" -o "$base.any.ptx" 2>"$base.any.err"; then
    "$ptxemit" "$mir" -o "$base.plain.ptx" || exit 1
    cmp -s "$base.plain.ptx" "$base.any.ptx" ||
      diff "$base.plain.ptx" "$base.any.ptx" | sed -n 's/^> *//p' | head -n 3 |
        awk -v m="$m.any" '{ print m, 0, "prints", $0 }' >>order.no
  else
    sed -n 's/^[^:]*\.mir:\([0-9]*\):[0-9]*: error: \(.*\)/\1 \2/p' "$base.any.err" |
      awk -v m="$m.any" '{ print m, $0 }' >>order.no
  fi
done

# the window: every other target of each variant's; "MODULE LINE MESSAGE"
: >window.no
for mir in `ls m/*.w.mir 2>/dev/null`; do
  m=${mir#m/}; m=${m%.mir}
  "$ptxemit" --max-errors=0 --lineinfo "$mir" -o "m/$m.ptx" 2>"$mir.err" ||
    sed -n 's/^[^:]*\.mir:\([0-9]*\):[0-9]*: error: \(.*\)/\1 \2/p' "$mir.err" |
      awk -v m="$m" '{ print m, $0 }' >>window.no
done

# ptxas: the modules whose verdict the cache lacks; "MODULE ARCH KEY" per module
# ptxas's -arch for a target (testsuite/ptxasarch.sh)
. "$srcdir/testsuite/ptxasarch.sh"
pver=`{ "$ptxas" --version 2>&1; } | $hash | cut -c1-16`
: >keys
for ptx in `ls m/*.ptx | grep -v '\.any\.ptx$\|\.plain\.ptx$'`; do
  t=`sed -n 's/^\.target \([a-z0-9_]*\).*/\1/p' "$ptx"`
  a=`ptxas_arch "$t"`
  h=`$hash "$ptx" | cut -d' ' -f1`
  echo "$ptx $a $pver:$a:$h" >>keys
done
cache_verdicts >known
awk 'FILENAME == ARGV[1] { if ($2 == "ok") ok[$1] = 1; next } !($3 in ok)' known keys >todo
nrun=`wc -l <todo | tr -d ' '`
: >new
if test "$nrun" -gt 0; then
  # shellcheck disable=SC2016
  xargs -P "$jobs" -n 3 sh -c '
    if "$0" -arch="$2" -c "$1" -o /dev/null >"$1.ptxas" 2>&1; then v=ok; else v=no; fi
    echo "$3 $v"' "$ptxas" <todo >new || exit 1
  append_cache new || exit 1
fi
# each line ptxas refuses, as the MIR line its .loc names: "MODULE LINE MESSAGE"
: >ptxas.no
awk 'FILENAME == ARGV[1] { if ($2 == "no") bad[$1] = 1; next } ($3 in bad) { print $1 }' new keys |
while read -r ptx; do
  m=${ptx#m/}; m=${m%.ptx}
  sed -n 's/^ptxas [^,]*, line \([0-9]*\); \(.*\)/\1 \2/p' "$ptx.ptxas" >"$ptx.lines"
  awk -v m="$m" 'FILENAME == ARGV[1] { loc[FNR] = ($1 == ".loc") ? $3 : ""; next }
    { l = $1; $1 = ""; mir = ""
      for (k = l; k >= 1 && mir == ""; k--) if (loc[k] != "") mir = loc[k]
      print m, (mir == "" ? 0 : mir), "ptxas:" $0 }' "$ptx" "$ptx.lines" >>ptxas.no
  test -s "$ptx.lines" || echo "$m 0 ptxas: `head -n 1 "$ptx.ptxas"`" >>ptxas.no
done

# the verdicts, per combination
awk '
  FILENAME == ARGV[1] { if ($1 == "count") { nops++; nvar += $3; desc += $4; built += $5; stmts += $6; wst += $7
                                            if ($4 != $5) { bad++; print "tensorcombos: " $2 " lists " $4 " combinations, " $5 " written" } }
                        else { bad++; print "tensorcombos: cannot write " substr($0, 9) } next }
  FILENAME != ARGV[6] {
    k = $1 " " $2; m = $0; sub(/^[^ ]* [^ ]* /, "", m)
    if (!(k in why)) why[k] = (FILENAME == ARGV[2] ? "ptxemit: " : FILENAME == ARGV[3] ? "" : \
                               FILENAME == ARGV[4] ? "ptxemit, the tokens in another order: " : "ptxemit on this target: ") m
    if ($2 == 0) { bad++; print "tensorcombos: " $1 ": " why[k] }
    next }
  { stmt[$1 " " $2] = 1; k = $1 " " $2; op = $1; sub(/\..*/, "", op); c = op ":" $3
    kind = $1 ~ /\.any$/ ? "order" : $1 ~ /\.w$/ ? "window" : "own"
    if (k in why) { if (!((kind, c) in refused)) n[kind]++; refused[kind, c] = 1
                    line = $0; sub(/^[^ ]* [^ ]* [^ ]* +/, "", line); print "refused: " line "\n  " why[k] }
    if (kind == "own") seen[c] = 1 }
  END {
    for (k in why) { split(k, kp, " "); if (kp[2] != 0 && !(k in stmt)) { bad++; print "tensorcombos: a refusal outside the statements: " k ": " why[k] } }
    for (c in seen) if (!(("own", c) in refused)) ok++
    printf "tensorcombos: %d operations, %d variants, %d combinations listed, %d written as %d statements; %d accepted by ptxemit and assembled by ptxas on the lowest target, %d refused\n",
      nops, nvar, desc, built, stmts, ok, n["own"]
    printf "tensorcombos: the same statements with their tokens in another order: %d combinations refused or printed otherwise\n", n["order"]
    printf "tensorcombos: %d statements on the other targets of their windows: %d combinations refused by ptxemit or ptxas\n", wst, n["window"]
    exit (bad + n["own"] + n["order"] + n["window"]) > 0
  }' counts emit.no ptxas.no order.no window.no lines >report
st=$?
cat report
echo "tensorcombos: `wc -l <keys | tr -d ' '` modules for ptxas, $nrun given to it, the rest cached"
exit $st
