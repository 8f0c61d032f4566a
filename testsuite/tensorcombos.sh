#!/bin/sh
# tensorcombos.sh SRCDIR PTXEMIT PROVER PTXAS CACHE [JOBS]: the combination proof.
# Every token combination of every variant of every operation that
# `ptxemit --list-ops` names and `ptxemit --describe` lists (the tensor
# families mma, mma.sp, wmma, wgmma, tcgen05 and the matrix copies
# ldmatrix|stmatrix|movmatrix among them) is judged statement by statement on
# every target of data/targets.yaml, two-sided:
#   - on the variant's lowest target and PTX ISA version ptxemit accepts it;
#   - on any target T where ptxemit accepts it, ptxas assembles what ptxemit
#     prints for T (otherwise the verdict is "unsound");
#   - on any target T where ptxemit refuses it, ptxas refuses the PTX ptxemit
#     prints for the lowest target, retargeted to T with its `.version`
#     raised to T's lowest (otherwise the verdict is a "false reject").
# The PTX ISA version on T is the variant's raised to T's lowest.
#
# `prover combos-gen` (testsuite/prover/combos_gen.c) reads the operation
# tables `ptxemit --describe=OP` prints and writes one MIR statement per combination (an optional slot both empty and filled, an
# optional operand both given and left out); the statements are gathered into
# one module per lowest target and PTX version, a kernel per operation (and
# cta_group: ptxas refuses two in one function). ptxemit translates each
# module for each target (--max-errors=0: every line it refuses is reported;
# --lineinfo: each PTX line names its MIR line; the refused lines blanked
# until it accepts the rest). ptxas is given one text per target, version and
# operation family (the operation's name up to its first dot): the
# functions ptxemit printed for the target and, for the statements it
# refused there, the functions it printed for the lowest target, renamed and
# retargeted, with every other statement blanked. ptxas reports each line it
# refuses (`prover judge`, testsuite/prover/judge.c), and each is read back to its statement
# through the `.loc` before it. Each statement is also written with its
# modifier tokens in another order (ptxemit-mir(5): any order, PTX's relative
# order within a class of slots, the fixed tokens left out), which must print
# the same PTX on the lowest target.
# ptxas's verdicts are kept in CACHE, the target sweep's (the prover judges
# every text of both), so a second run asks ptxas only about texts that
# changed. The targets are judged in JOBS streams at once, each with JOBS
# ptxas at once: ptxemit's translations, not ptxas, are most of a warm run.
# With PX_COMBOS_PTXAS=no (the sanitizer build) ptxas is not asked: every
# module is translated for every target (and the twins on the lowest), and
# only what ptxemit does is checked (it accepts every statement on its
# lowest target, the twins print the same, no translation fails without a
# message at a line); the verdicts are the plain build's. The number of combinations written must
# equal the number the describe text lists: a variant whose operands the
# generator cannot write fails the test instead of being left out. A
# combination a rule of the tables refuses on every target (the describe
# text's "refused with" lines) is counted apart and judged apart: ptxas must
# refuse it on every target too (testsuite/combosruled.sh).
# PX_COMBOS_OPS, an extended regular expression, limits the operations
# (default: every one); PX_COMBOS_TARGETS=lowest limits the targets judged
# (below).
#
# Prints the counts and every disagreement; exits 1 on any disagreement,
# refusal on a lowest target or difference in the counts, 77 without ptxas.
set -u
srcdir=$1 ptxemit=$2 prover=$3 ptxas=$4 cache=$5 jobs=${6:-2}
judge=${PX_COMBOS_PTXAS:-yes}
test "$judge" = no || { test -n "$ptxas" && test -x "$ptxas"; } || exit 77
case $ptxemit in /*) ;; */*) ptxemit=`pwd`/$ptxemit ;; esac
case $prover in /*) ;; */*) prover=`pwd`/$prover ;; esac
case $cache in /*) ;; */*) cache=`pwd`/$cache ;; esac

# ptxas's verdicts on texts, through the cache: $1 holds "FILE ARCH" lines,
# "FILE VERDICT" lines go to $2 (the prover's last line, its count of texts
# asked, left out)
judge_texts () {
  "$prover" judge "$ptxas" "$cache" "$jobs" <"$1" >"$2.all" && sed '$d' "$2.all" >"$2"
}

work=`pwd`/combos.d
rm -rf "$work" && mkdir -p "$work/m" "$work/t" "$work/x" || exit 1
touch "$cache" || exit 1
cd "$work" || exit 1

# ptxas's -arch for a target (testsuite/ptxasarch.sh)
. "$srcdir/testsuite/ptxasarch.sh"
# each target's lowest PTX ISA version
sed -n 's/^ *- *{name: *\(sm_[0-9a-z]*\), *sm: *[0-9]*, *ptx: *\([0-9.]*\).*/\1 \2/p' \
  "$srcdir/data/targets.yaml" >targets
# the statements: S and P lines (`prover combos-gen`, testsuite/prover/combos_gen.c,
# from the operation tables), counts
"$prover" combos-gen "${PX_COMBOS_OPS:-.}" >gen || exit 1
grep '^count ' gen >/dev/null && test -s targets || { echo "tensorcombos: no operations or targets read"; exit 1; }
grep '^count \|^unbuilt ' gen >counts

# the head of a module the proof writes (its variables and arrays, where
# used) and of a kernel, shared with testsuite/combosruled.sh; ln counts the
# module's lines
modhead='
function module_head(file, comment, key,    tv) {
  split(key, tv, "-")
  print "; " comment " " tv[1] > file
  print "target " tv[1] " ptx " tv[2] > file
  print "shared @sh : b64[64] align 128" > file
  ln = 3
  if (key in usegl) { print "global @gl : b64[64] align 16" > file; ln++ }
  if (key in usecn) { print "const @cn : b64[64] align 16" > file; ln++ }
}
function kernel_head(file, k, p) {
  print "kernel @" k "_" p "(%p: ptr, %g: ptr global" (k in usepa ? ", %pa: b8[64] align 16" : "") ") {" > file; ln++
}'

# the modules m/T0-V0.mir (and their twins m/T0-V0.any.mir, the tokens in
# the other order), a kernel per operation and cta_group, the values a kernel
# uses first; "MODULE LINE ID" in map, "ID OP COMBINATION<tab>TEXT" in stmts
# (ID: S1, S2... a statement, P1, P2... a value)
awk -F '\t' -v most=200 "$modhead"'
  $1 ~ /^[SP] / {
    split($1, f, " "); key = f[3] "-" f[4]
    k = f[2] "_" f[3] "_" f[4] "_" f[5]; gsub(/\./, "_", k)
    if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key }
    if (!((key, k) in kseen)) { kseen[key, k] = 1; kern[key, ++nkern[key]] = k }
    if (f[1] == "P") { np++; pl[k, ++npl[k]] = $2; pid[k, npl[k]] = "P" np
                       print "P" np, f[2], 0 "\t" $2 >"stmts" }
    else { ns++; sl[k, ++nsl[k]] = $2; tw[k, nsl[k]] = $3; sid[k, nsl[k]] = "S" ns
           print "S" ns, f[2], f[6] "\t" $2 >"stmts" }
    # the global and const arrays and the by-value parameter, only where used
    if ($2 ~ /@gl([^A-Za-z0-9_]|$)/) usegl[key] = 1
    if ($2 ~ /@cn([^A-Za-z0-9_]|$)/) usecn[key] = 1
    if ($2 ~ /%pa([^A-Za-z0-9_]|$)/) usepa[k] = 1
  }
  END {
    for (i = 1; i <= nkeys; i++) {
      key = keys[i]
      for (tw_ = 0; tw_ <= 1; tw_++) {
        file = "m/" key (tw_ ? ".any" : "") ".mir"
        module_head(file, "every token combination ptxemit --describe lists whose lowest target is", key)
        for (j = 1; j <= nkern[key]; j++) {
          k = kern[key, j]
          # at most `most` statements a kernel: ptxas takes superlinear time
          # over a long function (wgmma most of all)
          for (p = 0; p * most < nsl[k] || p == 0; p++) {
            kernel_head(file, k, p)
            # a local array before the values: MIR declares it before any
            # statement of the body
            for (pass = 0; pass <= 1; pass++)
              for (l = 1; l <= npl[k]; l++)
                if ((pl[k, l] ~ /^  local /) == !pass) { print pl[k, l] > file; ln++; if (!tw_) print key, ln, pid[k, l] >"map" }
            for (l = p * most + 1; l <= nsl[k] && l <= (p + 1) * most; l++) {
              print (tw_ ? tw[k, l] : sl[k, l]) > file; ln++; if (!tw_) print key, ln, sid[k, l] >"map"
            }
            print "  ret" > file; print "}" > file; ln += 2
          }
        }
        close(file)
      }
    }
  }' gen || exit 1
ls m | sed -n 's/\.any\.mir$//p' >modules

# refused: "MODULE LINE MESSAGE" lines of ptxemit's messages
refusals () {
  sed -n 's/^[^:]*\.mir:\([0-9]*\):[0-9]*: error: \(.*\)/\1 \2/p' "$1"
}
# ptxemit on a module for one target, the refused lines blanked until it
# accepts the rest: translate MODULE TARGET PTX OUT; the refused lines in OUT.no
# ("0 MESSAGE": a failure that is no refusal at a line, a sanitizer's report
# among them). Without ptxas the first run is the only one: its refusals are
# all that is kept, and the rest of the module is translated on its lowest
# target.
maxtries=4
test "$judge" = no && maxtries=0
translate () {
  cp "m/$1.mir" "$4.mir"; : >"$4.no"; tries=0
  until "$ptxemit" -j1 --max-errors=0 --lineinfo --target="$2" --ptx="$3" "$4.mir" -o "$4" 2>"$4.err"; do
    refusals "$4.err" >"$4.new"
    grep -e 'Sanitizer' -e 'runtime error:' "$4.err" >"$4.san" && : >"$4.new"
    test -s "$4.new" || { echo "0 `cat "$4.san" "$4.err" | head -n 1`" >>"$4.no"; rm -f "$4" "$4.san"; return; }
    test $tries -lt $maxtries || test "$judge" = no ||
      { echo "0 `head -n 1 "$4.err"`" >>"$4.no"; rm -f "$4" "$4.san"; return; }
    cat "$4.new" >>"$4.no"
    test $tries -lt $maxtries || { rm -f "$4" "$4.san" "$4.mir" "$4.err" "$4.new"; return; }
    awk 'FILENAME == ARGV[1] { no[$1] = 1; next } { print (FNR in no) ? "" : $0 }' "$4.new" "$4.mir" >"$4.tmp" &&
      mv "$4.tmp" "$4.mir"
    tries=$((tries + 1))
  done
  rm -f "$4.mir" "$4.err" "$4.new" "$4.san"
}

# the lowest targets: every statement accepted, the twin the same PTX (the
# lines refused in the module blanked in its twin too)
: >own.no; : >order.no
while read -r key; do
  t0=${key%-*} v0=${key#*-}
  translate "$key" "$t0" "$v0" "m/$key.ptx"
  awk -v m="$key" '{ print m, $0 }' "m/$key.ptx.no" >>own.no
  awk 'FILENAME == ARGV[1] { no[$1] = 1; next } { print (FNR in no) ? "" : $0 }' \
    "m/$key.ptx.no" "m/$key.any.mir" >"m/$key.any.b.mir"
  awk 'FILENAME == ARGV[1] { no[$1] = 1; next } { print (FNR in no) ? "" : $0 }' \
    "m/$key.ptx.no" "m/$key.mir" >"m/$key.b.mir"
  if "$ptxemit" -j1 --max-errors=0 "m/$key.any.b.mir" -o "m/$key.any.ptx" 2>"m/$key.any.err"; then
    "$ptxemit" -j1 "m/$key.b.mir" -o "m/$key.plain.ptx" 2>/dev/null
    cmp -s "m/$key.plain.ptx" "m/$key.any.ptx" ||
      diff "m/$key.plain.ptx" "m/$key.any.ptx" | sed -n 's/^> *//p' | head -n 3 |
        awk -v m="$key" '{ print m, 0, "prints", $0 }' >>order.no
  else
    refusals "m/$key.any.err" | awk -v m="$key" '{ print m, $0 }' >>order.no
  fi
  rm -f "m/$key.any.b.mir" "m/$key.b.mir" "m/$key.plain.ptx" "m/$key.any.ptx"
done <modules

# one target: ptxemit's verdicts, then ptxas's on the texts, into
# t/T.verdicts and t/T.outside (judge_target TARGET LOWEST-PTX)
judge_target () {
  t=$1 tmin=$2
  arch=`ptxas_arch "$t"`
  : >"t/$t.plan"; : >"t/$t.verdicts"; : >"t/$t.outside"
  while read -r key; do
    t0=${key%-*} v0=${key#*-}
    test "$lowest" = yes && test "$t" != "$t0" && continue
    v=$v0
    test $((${tmin%.*} * 100 + ${tmin#*.})) -gt $((${v0%.*} * 100 + ${v0#*.})) && v=$tmin
    out=t/$key.$t.ptx
    if test "$t" = "$t0"; then cp "m/$key.ptx" "$out" 2>/dev/null; cp "m/$key.ptx.no" "$out.no"
    else translate "$key" "$t" "$v" "$out"; fi
    test -f "$out" || out=-
    echo "$key $v $out m/$key.ptx t/$key.$t.ptx.no" >>"t/$t.plan"
  done <modules
  # without ptxas (the sanitizer build): what ptxemit could not judge
  if test "$judge" = no; then
    awk -v t="$t" '$1 == 0 { m = FILENAME; sub(/^t\//, "", m); sub(/\.sm_[0-9a-z]+\.ptx\.no$/, "", m)
      print t, m, "ptxemit:", $0 }' t/*."$t".ptx.no >>"t/$t.outside"
    rm -f t/*."$t".ptx t/*."$t".ptx.no
    return 0
  fi
  # the texts for ptxas: x/T.V.FAMILY.ptx; "TEXT INDEX MODULE KIND" in x/T.index
  awk -v t="$t" -v plan="t/$t.plan" '
    function piece(file, key, kind, v, own,    l, q, name, fam, tid, n, keep, instmt, any, buf, nb, i) {
      idx++; nb = 0
      while ((getline l < file) > 0) {
        if (name == "") {
          # a function; a module variable (.visible .const too) is declared
          # once a version, in every text of it
          if (l ~ /^(\.(visible|weak|extern) +)?\.(entry|func)/) {
            name = l; sub(/^.*(entry|func) +/, "", name); sub(/[( ].*/, "", name)
            fam = name; sub(/_.*/, "", fam); tid = v "." fam
            instmt = 0; any = 0; nb = 0
          } else if (l ~ /^(\.(visible|weak|extern) +)?\.(shared|global|const)/ && !((v, l) in decl)) { decl[v, l] = 1; decls[v] = decls[v] l "\n" }
          if (name == "") continue
        }
        if (l ~ /^[ \t]*\.loc /) {
          split(l, q, " "); instmt = 1; keep = !own || (q[3] in R); any = any || keep
          l = "\t.loc @F " q[3] " " q[4]
        } else if (l ~ /^}/) instmt = 0
        else if (instmt && !keep && l !~ /^[$A-Za-z_][$A-Za-z0-9_]*:$/) l = ""
        if (own) gsub(name, "o_" name, l)
        buf[++nb] = l
        if (l ~ /^}/) {
          if (any || !own) {
            if (!(tid in tseen)) { tseen[tid] = 1; tids[++ntid] = tid; tv[tid] = v }
            # the file numbers count within the text, so that a text
            # changes only with its own pieces
            if (!((tid, idx) in used)) { used[tid, idx] = ++nfile[tid]; files[tid] = files[tid] ".file " nfile[tid] " \"" key " " kind "\"\n" }
            for (i = 1; i <= nb; i++) { sub(/^\t\.loc @F /, "\t.loc " used[tid, idx] " ", buf[i]); tl[tid, ++tn[tid]] = buf[i] }
          }
          name = ""; nb = 0
        }
      }
      close(file)
    }
    BEGIN {
      while ((getline pl < plan) > 0) {
        split(pl, f, " ")
        for (k in R) delete R[k]
        nr = 0
        while ((getline l < f[5]) > 0) { split(l, g, " "); R[g[1]] = 1; nr++ }
        close(f[5])
        if (f[3] != "-") piece(f[3], f[1], "acc", f[2], 0)
        if (nr) piece(f[4], f[1], "own", f[2], 1)
      }
      for (i = 1; i <= ntid; i++) {
        tid = tids[i]; file = "x/" t "." tid ".ptx"
        printf ".version %s\n.target %s\n.address_size 64\n%s%s", tv[tid], t, files[tid], decls[tv[tid]] > file
        for (j = 1; j <= tn[tid]; j++) print tl[tid, j] > file
        close(file)
        print file
      }
    }' </dev/null >"t/$t.texts" || return 1
  # each text: its ptxas -arch
  awk -v a="$arch" '{ print $1, a }' "t/$t.texts" >"t/$t.asks"
  judge_texts "t/$t.asks" "t/$t.judged" || return 1
  # each refused line of a text, as "MODULE KIND MIRLINE" (or outside)
  awk '$2 != "ok" { print $1, $2 }' "t/$t.judged" | while read -r x v; do
    echo "$v" | sed 's/^no:\{0,1\}//' | tr ',' '\n' | grep . >"t/$t.lines"
    test -s "t/$t.lines" || { echo "$t $x ptxas refuses it without naming a line" >>"t/$t.outside"; continue; }
    awk -v x="$x" -v t="$t" -v out="t/$t.outside" 'FILENAME == ARGV[1] { bad[$1] = 1; next }
      /^\.file / { f = $3 " " $4; gsub(/"/, "", f); file[$2] = f }
      /^[ \t]*\.loc / { cur = file[$2] " " $3; next }
      /^}/ || /^\.(visible|weak|entry|func)/ { cur = "" }
      FNR in bad { if (cur == "") print t, x, FNR, $0 >>out; else print cur }' "t/$t.lines" "$x"
  done >"t/$t.refused"
  # the verdicts: "TARGET ID VERDICT MODULE [MESSAGE]" for each statement
  # and value; a refused line that is neither is reported as outside
  awk -v t="$t" -v out="t/$t.outside" '
    FILENAME == ARGV[1] { bad[$1, $2, $3] = 1; next }
    FILENAME ~ /\.no$/ { m = FILENAME; sub(/^t\//, "", m); sub(/\.sm_[0-9a-z]+\.ptx\.no$/, "", m); rno[m, $1] = $0; next }
    { m = $1; l = $2; stmt[m, l] = 1
      if (!((m, l) in rno)) v = ((m, "acc", l) in bad) ? "unsound" : "acc"
      else v = ((m, "own", l) in bad) ? "rej" : "false"
      msg = (m, l) in rno ? rno[m, l] : ""; sub(/^[0-9]+ /, "", msg)
      print t, $3, v, m, msg }
    END { for (k in rno) if (!(k in stmt)) { split(k, kk, SUBSEP); print t, kk[1], "ptxemit:", rno[k] >>out } }' \
    "t/$t.refused" t/*."$t".ptx.no map >>"t/$t.verdicts" || return 1
  rm -f t/*."$t".ptx t/*."$t".ptx.no x/"$t".*
}

# PX_COMBOS_TARGETS=lowest (the default `make check`; `make check-full`
# leaves it unset): ptxas judges each module on its own lowest target only,
# where ptxemit must accept every statement, so that every operation is still
# judged; the ruled combinations on those targets.
lowest=no
if test "${PX_COMBOS_TARGETS-}" = lowest; then
  lowest=yes
  sed 's/-.*//' modules | sort -u >lowest
  awk 'FILENAME == ARGV[1] { l[$1] = 1; next } $1 in l' lowest targets >targets.low && mv targets.low targets
fi

# every target, in STREAMS streams of targets at once (each its own
# files; the cache takes their verdicts under its lock)
streams=$jobs
test "$streams" -ge 1 2>/dev/null || streams=1
n=0
while test $n -lt "$streams"; do
  awk -v n=$n -v s="$streams" '(NR - 1) % s == n' targets >"t/stream$n"
  ( st=0
    while read -r t tmin; do judge_target "$t" "$tmin" || { st=1; echo "$t: the texts could not be judged" >>"t/$t.outside"; }; done <"t/stream$n"
    exit $st ) &
  n=$((n + 1))
done
wait
cat t/*.verdicts >verdicts 2>/dev/null; cat t/*.outside >outside 2>/dev/null

# the report
awk -F '\t' -v judge="$judge" -v ntarg="`wc -l <targets | tr -d ' '`" 'FILENAME == ARGV[1] { split($1, f, " "); op[f[1]] = f[2]; text[f[1]] = $2; own[f[1]] = f[3]; next }
  FILENAME == ARGV[2] {
    split($0, c, " "); $0 = ""; for (i in c) $i = c[i]
    if ($1 == "count") { nops++; nvar += $3; desc += $4; built += $5; stmts += $6; listed += $7; ruled += $8
      if ($4 != $5) { bad++; print "tensorcombos: " $2 " lists " $4 " combinations, " $5 " written" } }
    else { bad++; print "tensorcombos: cannot write " substr($0, 9) }
    next }
  FILENAME == ARGV[3] { bad++; print "tensorcombos: refused on its lowest target: " $0; next }
  FILENAME == ARGV[4] { bad++; nord++; print "tensorcombos: the tokens in another order: " $0; next }
  FILENAME == ARGV[5] { bad++; print "tensorcombos: refused outside the statements (by ptxas, or ptxemit:): " $0; next }
  { split($0, f, " "); n[f[3]]++; tot++
    if (f[3] == "unsound" || f[3] == "false") {
      line = $0; sub(/^[^ ]* [^ ]* [^ ]* [^ ]* ?/, "", line)
      print (f[3] == "false" ? "false reject" : "unsound") " on " f[1] ": " text[f[2]] (f[3] == "false" ? "\n  ptxemit: " line : "")
    } }
  END {
    printf "tensorcombos: %d operations, %d variants, %d combinations listed (%.0f in full), %d written as %d statements\n",
      nops, nvar, desc, listed, built, stmts
    if (ruled) printf "tensorcombos: %d combinations listed that a rule of the tables refuses on every target, not written\n", ruled
    if (judge == "no") printf "tensorcombos: translated for %d targets; ptxas not asked (PX_COMBOS_PTXAS=no)\n", ntarg
    else printf "tensorcombos: %d statement and value verdicts on %d targets: %d accepted and assembled, %d refused by both, %d unsound, %d false rejects\n",
      tot, ntarg, n["acc"], n["rej"], n["unsound"], n["false"]
    printf "tensorcombos: the same statements with their tokens in another order: %d refused or printed otherwise\n", nord
    exit (bad + n["unsound"] + n["false"]) > 0
  }' stmts counts own.no order.no outside verdicts >report
st=$?
cat report
# the combinations a rule refuses on every target, judged by ptxas
# (testsuite/combosruled.sh)
rst=0
. "$srcdir/testsuite/combosruled.sh"
exit $((st | rst))
