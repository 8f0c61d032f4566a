#!/bin/sh
# tensorcombos.sh SRCDIR PTXEMIT PTXAS CACHE [JOBS]: every token combination of
# every variant of mma, mma.sp, wmma, wgmma and tcgen05 that `ptxemit
# --describe` lists is accepted by ptxemit and assembled by ptxas on the
# variant's lowest target and PTX ISA version.
#
# For each operation of those families (`ptxemit --list-ops`),
# testsuite/tensorcombos.awk reads `ptxemit --describe=OP` and writes one MIR
# statement per combination (an optional slot both empty and filled) into one
# module per target and PTX version. ptxemit translates each module
# (--max-errors=0: every line it refuses is reported; --lineinfo: each PTX
# line names its MIR line) and ptxas assembles the output for that target
# (every line it refuses is reported too). ptxas's verdicts on whole modules
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
hash=
for h in sha256sum sha1sum md5sum; do
  if command -v $h >/dev/null 2>&1; then hash=$h; break; fi
done
test -n "$hash" || { echo "tensorcombos: no sha256sum, sha1sum or md5sum" >&2; exit 77; }
case $ptxemit in /*) ;; */*) ptxemit=`pwd`/$ptxemit ;; esac

work=`pwd`/combos.d
rm -rf "$work" && mkdir -p "$work/m" || exit 1
touch "$cache" || exit 1
cd "$work" || exit 1

# each target's lowest PTX ISA version
sed -n 's/^ *- *{name: *\(sm_[0-9a-z]*\), *sm: *[0-9]*, *ptx: *\([0-9.]*\).*/\1 \2/p' \
  "$srcdir/data/targets.yaml" >targets
"$ptxemit" --list-ops | awk '$1 ~ /^(mma|mma\..*|wmma\..*|wgmma\..*|tcgen05\..*)$/ { print $1 }' >ops
test -s ops && test -s targets || { echo "tensorcombos: no operations or targets read"; exit 1; }

# the statements: "MODULE LINE COMBINATION TEXT" (COMBINATION numbered per op)
: >lines; : >counts
i=0
while read -r op; do
  i=$((i + 1))
  "$ptxemit" --describe="$op" >describe.txt || exit 1
  awk -v op="$op" -v opi="$i" -v targets=targets -v out=m -f "$srcdir/testsuite/tensorcombos.awk" \
    describe.txt >gen || exit 1
  grep -v '^count \|^unbuilt ' gen >>lines
  grep '^count \|^unbuilt ' gen >>counts
done <ops

# ptxemit: each module, with the lines it refuses blanked until it accepts it
: >emit.no
for mir in m/*.mir; do
  base=${mir%.mir}
  : >"$base.blank"
  n=0
  until "$ptxemit" --max-errors=0 --lineinfo "$mir" -o "$base.ptx" 2>"$base.err"; do
    sed -n 's/^[^:]*\.mir:\([0-9]*\):[0-9]*: error: \(.*\)/\1 \2/p' "$base.err" >"$base.refused"
    test -s "$base.refused" && test $n -lt 3 || {
      echo "tensorcombos: ptxemit refuses $mir outside the statements:"; cat "$base.err"; exit 1; }
    m=${base#m/}
    awk -v m="$m" '{ print m, $0 }' "$base.refused" >>emit.no
    cut -d' ' -f1 "$base.refused" | sort -u >"$base.nl"
    awk 'FILENAME == ARGV[1] { no[$1] = 1; next } { print (FNR in no) ? "" : $0 }' \
      "$base.nl" "$mir" >"$mir.tmp" && mv "$mir.tmp" "$mir"
    n=$((n + 1))
  done
done

# ptxas: the modules whose verdict the cache lacks; "MODULE ARCH KEY" per module
arch_of () {
  case $1 in
    sm_70|sm_72) echo sm_75 ;;
    sm_101) echo sm_110 ;;
    sm_101f) echo sm_110f ;;
    *) echo "$1" ;;
  esac
}
pver=`{ "$ptxas" --version 2>&1; } | $hash | cut -c1-16`
: >keys
for ptx in m/*.ptx; do
  t=`sed -n 's/^\.target \([a-z0-9_]*\).*/\1/p' "$ptx"`
  a=`arch_of "$t"`
  h=`$hash "$ptx" | cut -d' ' -f1`
  echo "$ptx $a $pver:$a:$h" >>keys
done
. "$srcdir/testsuite/sweepcache.sh"
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
  FILENAME == ARGV[1] { if ($1 == "count") { nops++; nvar += $3; desc += $4; built += $5; stmts += $6
                                            if ($4 != $5) { bad++; print "tensorcombos: " $2 " lists " $4 " combinations, " $5 " written" } }
                        else { bad++; print "tensorcombos: cannot write " substr($0, 9) } next }
  FILENAME == ARGV[2] || FILENAME == ARGV[3] {
    k = $1 " " $2; m = $0; sub(/^[^ ]* [^ ]* /, "", m)
    if (!(k in why)) why[k] = (FILENAME == ARGV[2] ? "ptxemit: " : "") m
    next }
  { stmt[$1 " " $2] = 1; k = $1 " " $2; op = $1; sub(/\..*/, "", op); c = op ":" $3
    if (k in why) { if (!(c in refused)) nref++; refused[c] = 1
                    line = $0; sub(/^[^ ]* [^ ]* [^ ]* +/, "", line); print "refused: " line "\n  " why[k] }
    seen[c] = 1 }
  END {
    for (k in why) if (!(k in stmt)) { bad++; print "tensorcombos: a refusal outside the statements: " k ": " why[k] }
    for (c in seen) if (!(c in refused)) ok++
    printf "tensorcombos: %d operations, %d variants, %d combinations listed, %d written as %d statements; %d accepted by ptxemit and assembled by ptxas, %d refused\n",
      nops, nvar, desc, built, stmts, ok, nref
    exit (bad + nref) > 0
  }' counts emit.no ptxas.no lines >report
st=$?
cat report
echo "tensorcombos: `ls m/*.mir | wc -l | tr -d ' '` modules, $nrun given to ptxas, the rest cached"
exit $st
