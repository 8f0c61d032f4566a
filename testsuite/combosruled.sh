# combosruled.sh, sourced by testsuite/tensorcombos.sh in its work directory
# after its report: the combinations a rule of the tables refuses on every
# target (the describe text's "refused with" lines), judged by ptxas on every
# target. ptxemit prints no PTX for them, so tensorcombos.awk writes beside
# each a carrier ("R" lines, their values as "Q" lines): the same statement
# with a slot the rule names holding a token no rule refuses. The carriers
# are translated on their lowest target (--lineinfo), and in each carrier's
# instruction the refused combination's spelling replaces the carrier's (the
# whole mnemonic where ptxemit prints the spelling as written, else the
# tokens that differ; a property's token or '-' on its operand). That text,
# retargeted to each target with its `.version` raised to the target's
# lowest, must be refused by ptxas at the statement's line on every target:
# where ptxas assembles one, the rule refuses what ptxas accepts.
# Uses gen, targets, $ptxemit, $srcdir and tensorcombos.sh's translate,
# ptxas_arch and judge_texts; sets rst (1: a disagreement or a combination
# it could not write) and prints its counts.
mkdir -p r
grep '^[QR] ' gen >r/gen
grep '^unruled ' gen >r/unruled

# the modules m/ruled.T0-V0.mir, a kernel per operation and cta_group (at
# most 200 carriers a kernel); "MODULE LINE ID" in r/map, "ID OP<tab>
# STATEMENT<tab>CARRIER'S SPELLING<tab>SPELLING<tab>PROPERTIES<tab>GPU" in
# r/stmts
awk -F '\t' -v most=200 "$modhead"'
  { split($1, f, " "); key = f[3] "-" f[4]
    k = f[2] "_" f[3] "_" f[4] "_" f[5]; gsub(/\./, "_", k)
    if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key }
    if (!((key, k) in kseen)) { kseen[key, k] = 1; kern[key, ++nkern[key]] = k }
    if (f[1] == "Q") pl[k, ++npl[k]] = $2
    else { ns++; sl[k, ++nsl[k]] = $2; sid[k, nsl[k]] = "R" ns
           print "R" ns, f[2] "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 >"r/stmts" }
    # the carrier'"'"'s symbols and the refused statement'"'"'s (put back in its PTX)
    t = $2 " " $3
    if (t ~ /@gl([^A-Za-z0-9_]|$)/) usegl[key] = 1
    if (t ~ /@cn([^A-Za-z0-9_]|$)/) usecn[key] = 1
    if (t ~ /%pa([^A-Za-z0-9_]|$)/) usepa[k] = 1 }
  END {
    for (i = 1; i <= nkeys; i++) {
      key = keys[i]; file = "m/ruled." key ".mir"
      module_head(file, "carriers of the combinations a rule refuses, lowest target", key)
      for (j = 1; j <= nkern[key]; j++) {
        k = kern[key, j]
        for (p = 0; p * most < nsl[k]; p++) {
          kernel_head(file, k, p)
          for (pass = 0; pass <= 1; pass++)
            for (l = 1; l <= npl[k]; l++)
              if ((pl[k, l] ~ /^  local /) == !pass) { print pl[k, l] > file; ln++ }
          for (l = p * most + 1; l <= nsl[k] && l <= (p + 1) * most; l++) {
            print sl[k, l] > file; ln++; print key, ln, sid[k, l] >"r/map"
          }
          print "  ret" > file; print "}" > file; ln += 2
        }
      }
      close(file)
    }
  }' r/gen || exit 1
touch r/map r/stmts
ls m | sed -n 's/^ruled\.\(.*\)\.mir$/\1/p' >r/modules

# each module's carriers on its lowest target, then the refused
# combinations' spellings written in: r/KEY.ptx; "KEY ID WHY" in r/unwritten
: >r/unwritten; : >r/unwritten.lines; : >r/unwritten.no; : >r/wmap
while read -r key; do
  t0=${key%-*} v0=${key#*-}
  translate "ruled.$key" "$t0" "$v0" "r/$key.carrier.ptx"
  awk -v m="$key" '{ l = $1; sub(/^[0-9]+ /, ""); print m, l, "ptxemit refuses the carrier:", $0 }' \
    "r/$key.carrier.ptx.no" >>r/unwritten.lines
  test -f "r/$key.carrier.ptx" || continue
  awk -F '\t' -v m="$key" '
    FILENAME == ARGV[1] { split($0, a, " "); if (a[1] == m) id[a[2]] = a[3]; next }
    FILENAME == ARGV[2] { split($1, a, " "); csp[a[1]] = $3; rsp[a[1]] = $4; pairs[a[1]] = $5; next }
    # the changed tokens: the spellings less their common leading and
    # trailing tokens
    function middle(c, r,    cf, rf, nc, nr, p, q, i) {
      nc = split(c, cf, "."); nr = split(r, rf, ".")
      for (p = 0; p < nc && p < nr && cf[p + 1] == rf[p + 1]; p++) ;
      for (q = 0; q < nc - p && q < nr - p && cf[nc - q] == rf[nr - q]; q++) ;
      cmid = ""; for (i = p + 1; i <= nc - q; i++) cmid = cmid "." cf[i]
      rmid = ""; for (i = p + 1; i <= nr - q; i++) rmid = rmid "." rf[i]
      before = p ? "." cf[p] : ""
    }
    # s with the first .tok (a whole token) replaced by rep, or "" where none
    function swap(s, tok, rep,    i, rest) {
      rest = s
      while ((i = index(rest, tok)) > 0) {
        if (substr(rest, i + length(tok), 1) !~ /[A-Za-z0-9_]/) return substr(s, 1, length(s) - length(rest) + i - 1) rep substr(rest, i + length(tok))
        rest = substr(rest, i + length(tok))
      }
      return ""
    }
    # the operands ops with the Nth one'"'"'s leading - turned on or off
    function negate(ops, n,    o, k, r, i, x) {
      k = split(ops, o, /, /)
      if (n > k) return ""
      x = o[n]; i = match(x, /[^ \t]/)
      o[n] = substr(x, i, 1) == "-" ? substr(x, 1, i - 1) substr(x, i + 1) : substr(x, 1, i - 1) "-" substr(x, i)
      r = o[1]; for (i = 2; i <= k; i++) r = r ", " o[i]
      return r
    }
    # the operands ops with the first address [..] naming the symbol the
    # MIR names (@sh: sh; %pa: the kernel'"'"'s third parameter, as the
    # modules declare it)
    function symbol(ops, sym,    i, j) {
      i = index(ops, "["); j = index(ops, "]")
      if (!i || j < i) return ""
      sym = sym == "%pa" ? entry "_param_2" : substr(sym, 2)
      return substr(ops, 1, i) sym substr(ops, j)
    }
    /^(\.visible )?\.entry / { entry = $0; sub(/^.*\.entry +/, "", entry); sub(/[( ].*/, "", entry) }
    /^[ \t]*\.loc / { split($0, q, " "); cur = (q[3] in id) ? id[q[3]] : ""; cl = q[3]; print; next }
    /^}/ { cur = "" }
    cur != "" && !(cur in done) {
      line = $0; w = line; sub(/^[ \t]*(@!?[%A-Za-z0-9_]+[ \t]+)?/, "", w); sub(/[ \t].*/, "", w)
      lead = substr(line, 1, index(line, w) - 1); ops = substr(line, index(line, w) + length(w))
      if (w == csp[cur]) nw = rsp[cur]
      else if (index(w, substr(csp[cur], 1, index(csp[cur] ".", ".") - 1)) != 1) { print; next }
      else {
        middle(csp[cur], rsp[cur])
        nw = cmid != "" ? swap(w, cmid, rmid) : before != "" ? swap(w, before, before rmid) : ""
        if (nw == "") { print m, cur, "prints " w " for " csp[cur] >"/dev/stderr"; done[cur] = 1; print; next }
      }
      n = split(pairs[cur], pp, " ")
      for (i = 1; i < n; i += 2) {
        x = pp[i] == "-" ? negate(ops, pp[i + 1]) : pp[i] == "@" ? symbol(ops, pp[i + 1]) : swap(ops, "." pp[i], "." pp[i + 1])
        if (x == "") { print m, cur, "no ." pp[i] " on the operands of " w >"/dev/stderr"; done[cur] = 1; print; next }
        ops = x
      }
      done[cur] = 1; print m, cl, cur >"r/wmap.new"; print lead nw ops; next
    }
    { print }
    END { for (l in id) if (!(id[l] in done)) print m, id[l], "no instruction printed for the carrier" >"/dev/stderr" }' \
    r/map r/stmts "r/$key.carrier.ptx" >"r/$key.ptx" 2>>r/unwritten.no
  cat r/wmap.new >>r/wmap 2>/dev/null; rm -f r/wmap.new
done <r/modules
# a carrier ptxemit refused: its statement unwritten
awk 'FILENAME == ARGV[1] { split($0, a, " "); id[a[1], a[2]] = a[3]; next }
  { l = $2; $2 = ""; print $1, id[$1, l], $0 }' r/map r/unwritten.lines 2>/dev/null >>r/unwritten
cat r/unwritten.no >>r/unwritten 2>/dev/null

# every target: the texts, ptxas's verdicts, "TARGET ID VERDICT" in r/verdicts
: >r/verdicts; : >r/outside
while read -r t tmin; do
  arch=`ptxas_arch "$t"`
  : >r/asks
  while read -r key; do
    test -f "r/$key.ptx" || continue
    v0=${key#*-} v=${key#*-}
    test $((${tmin%.*} * 100 + ${tmin#*.})) -gt $((${v0%.*} * 100 + ${v0#*.})) && v=$tmin
    sed -e "s/^\.version .*/.version $v/" -e "s/^\.target [^ ,]*/.target $t/" "r/$key.ptx" >"r/$key.$t.ptx"
    echo "r/$key.$t.ptx $arch" >>r/asks
  done <r/modules
  judge_texts r/asks r/judged || exit 1
  while read -r x verdict; do
    key=${x#r/}; key=${key%.$t.ptx}
    echo "$verdict" | sed 's/^no:\{0,1\}//;s/^ok$//' | tr ',' '\n' | grep . >r/lines
    test "$verdict" = no && { echo "$t $key ptxas refuses it without naming a line" >>r/outside; }
    awk -v t="$t" -v m="$key" -v x="$x" 'FILENAME == ARGV[1] { split($0, a, " "); if (a[1] == m) id[a[2]] = a[3]; next }
      FILENAME == ARGV[2] { bad[$1] = 1; next }
      /^[ \t]*\.loc / { cur = ($3 in id) ? id[$3] : ""; next }
      /^}/ { cur = "" }
      FNR in bad { if (cur != "") no[cur] = 1; else print t, x, FNR, $0 >>"r/outside" }
      END { for (l in id) print t, id[l], (id[l] in no) ? "rej" : "acc" }' r/wmap r/lines "$x" >>r/verdicts
  done <r/judged
  rm -f r/*."$t".ptx
done <targets

# the report: a combination ptxas assembles on some target, or that could
# not be written, is a disagreement; one only rules for the GPU's result
# refuse (the GPU computes another value than PTX defines: testsuite/gpu's
# video_forms runs them) is one where ptxas refuses it on its lowest target
awk -F '\t' -v ntarg="`wc -l <targets | tr -d ' '`" -v gun="`grep -c '^gpuunruled ' gen`" '
  FILENAME == ARGV[1] { split($0, a, " "); low[a[3]] = a[1]; sub(/-.*/, "", low[a[3]]); next }
  FILENAME == ARGV[2] { split($1, a, " "); text[a[1]] = $2; if ($6 == "gpu") gpu[a[1]] = 1; next }
  FILENAME == ARGV[3] { if (($1, $2) in unw) next; unw[$1, $2] = 1; unwr++; if (unwr <= 20) print "tensorcombos: a refused combination not written: " $0; next }
  FILENAME == ARGV[4] { unwr++; print "tensorcombos: cannot write the carrier of " substr($0, 9); next }
  FILENAME == ARGV[5] { outs++; print "tensorcombos: ptxas refuses outside the refused combinations: " $0; next }
  { split($0, f, " "); stmt[f[2]] = 1
    if (f[2] in gpu) { if (f[1] == low[f[2]]) { ng++; if (f[3] == "rej") { ngr++; if (ngr <= 40) print "ptxas refuses on " f[1] " a combination refused for the GPU'"'"'s result alone:" text[f[2]] } } next }
    n[f[3]]++; tot++
    if (f[3] == "acc") { accs[f[2]] = accs[f[2]] " " f[1]; nacc++ } }
  END {
    for (s in accs) { na++; if (na <= 40) print "ptxas assembles a combination a rule refuses, on" accs[s] ":" text[s] }
    if (na > 40) print "... and " na - 40 " more"
    for (s in stmt) if (!(s in gpu)) nst++
    printf "tensorcombos: %d combinations a rule refuses on every target written for ptxas (%d not written); %d verdicts on %d targets: %d refused by ptxas, %d assembled (%d combinations); %d refused for the GPU'"'"'s result alone, %d of them assembled by ptxas on their lowest target (%d more with no carrier: testsuite/gpu runs them)\n",
      nst, unwr, tot, ntarg, n["rej"], n["acc"], na, ng, ng - ngr, gun
    exit (unwr + outs + na + ngr) > 0
  }' r/map r/stmts r/unwritten r/unruled r/outside r/verdicts
rst=$?
