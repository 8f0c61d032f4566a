#!/bin/sh
# atomics.sh PTXEMIT PTXAS TARGET: every atom and red combination, asked of
# ptxemit and of ptxas; prints each one they disagree on and exits 1 if any.
#
# A combination is an operation (atom or red), its kind, a type, a vector size
# (none, .v2, .v4, .v8), .noftz or not, .L2::cache_hint or not, and a state
# space (global, shared, shared::cta, shared::cluster, generic). Each is one
# line of one MIR module and one line of one PTX module (.version 9.0); ptxemit
# (--max-errors=0) and ptxas report every line they refuse, so two runs judge
# all of them. The combinations ptxemit accepts are then translated alone and
# the PTX it prints must assemble. Exits 77 without ptxas.
set -u
ptxemit=$1 ptxas=$2 target=$3
test -n "$ptxas" && test -x "$ptxas" || exit 77
. "`dirname "$0"`/ptxasarch.sh"
arch=`ptxas_arch "$target"`

# one line per combination: "OP KIND TYPE VEC NOFTZ HINT SPACE" ("-": none)
awk 'BEGIN {
  nk = split("and or xor exch cas add inc dec min max", kinds, " ")
  nt = split("b16 b32 b64 b128 u32 u64 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64", types, " ")
  nv = split("- v2 v4 v8", vecs, " ")
  ns = split("global shared shared::cta shared::cluster -", spaces, " ")
  for (o = 0; o < 2; o++)
    for (k = 1; k <= nk; k++) {
      if (o && (kinds[k] == "exch" || kinds[k] == "cas")) continue
      for (t = 1; t <= nt; t++) for (v = 1; v <= nv; v++)
        for (z = 0; z < 2; z++) for (h = 0; h < 2; h++) for (s = 1; s <= ns; s++)
          print (o ? "red" : "atom"), kinds[k], types[t], vecs[v], (z ? "noftz" : "-"), (h ? "hint" : "-"), spaces[s]
    }
}' >combos

# The MIR module: its 19th line is combination 1.
{
  echo "target $target"
  echo "shared @sh : b8[256] align 16"
  echo "kernel @k(%g: ptr global, %p: ptr, %pol: b64) {"
  echo "  %s:u32 = mov @sh"
  for t in b16 b32 b64 b128 u32 u64 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64; do
    echo "  %v_$t:$t = ld.global [%g]"
  done
  awk '{
    op = $1; kind = $2; type = $3; vec = $4; noftz = $5; hint = $6; space = $7
    n = vec == "v2" ? 2 : vec == "v4" ? 4 : vec == "v8" ? 8 : 1
    name = op "." kind (noftz != "-" ? ".noftz" : "") (hint != "-" ? ".L2::cache_hint" : "") \
      (vec != "-" ? "." vec : "") "." type (space != "-" ? "." space : "")
    addr = space == "global" ? "[%g]" : space == "-" ? "[%p]" : "[%s]"
    val = "%v_" type
    if (n > 1) { val = "(" val; for (j = 1; j < n; j++) val = val ", %v_" type; val = val ")" }
    args = addr ", " val (kind == "cas" ? ", " val : "") (hint != "-" ? ", %pol" : "")
    res = op == "red" ? "" : "%d" NR ":" type (n > 1 ? "[" n "]" : "") " = "
    print "  " res name " " args
  }' combos
  echo "  ret"
  echo "}"
} >all.mir
first=`grep -n '^  %s:u32' all.mir | cut -d: -f1`
first=$((first + 15))   # the line of combination 1

# The PTX module: its 8th line is combination 1.
{
  echo ".version 9.0"
  echo ".target $target"
  echo ".address_size 64"
  echo ".shared .align 16 .b8 sh[256];"
  echo ".visible .entry k(.param .u64 p) {"
  echo ".reg .b16 %h<4>; .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .b128 %q<4>;"
  echo "ld.param.u64 %rd1, [p]; mov.u64 %rd2, sh; mov.b128 %q1, {%rd1, %rd1};"
  awk '{
    op = $1; kind = $2; type = $3; vec = $4; noftz = $5; hint = $6; space = $7
    n = vec == "v2" ? 2 : vec == "v4" ? 4 : vec == "v8" ? 8 : 1
    r = type ~ /^(b16|f16|bf16)$/ ? "%h1" : type ~ /^(b64|u64|s64|f64)$/ ? "%rd3" : type == "b128" ? "%q1" : "%r1"
    name = op (space != "-" ? "." space : "") "." kind (noftz != "-" ? ".noftz" : "") \
      (hint != "-" ? ".L2::cache_hint" : "") (vec != "-" ? "." vec : "") "." type
    addr = space == "global" || space == "-" ? "[%rd1]" : "[%rd2]"
    val = r
    if (n > 1) { val = "{" r; for (j = 1; j < n; j++) val = val ", " r; val = val "}" }
    args = addr ", " val (kind == "cas" ? ", " val : "") (hint != "-" ? ", %rd1" : "")
    print name " " (op == "red" ? "" : val ", ") args ";"
  }' combos
  echo "ret; }"
} >all.ptx
pfirst=8

ncombos=`wc -l <combos | tr -d ' '`
"$ptxemit" --max-errors=0 --verify-only all.mir 2>emit.err
"$ptxas" -arch="$arch" -c all.ptx -o /dev/null 2>ptxas.err
# refused combinations, by number
sed -n 's/^all\.mir:\([0-9]*\):.*/\1/p' emit.err | awk -v f="$first" '{ print $1 - f + 1 }' | sort -u -n >emit.no
sed -n 's/^ptxas all\.ptx, line \([0-9]*\);.*/\1/p' ptxas.err | awk -v f="$pfirst" '{ print $1 - f + 1 }' | sort -u -n >ptxas.no
# a refusal outside the combinations' lines is a defect of this script
awk -v n="$ncombos" '$1 < 1 || $1 > n { bad = 1 } END { exit bad }' emit.no ptxas.no ||
  { echo "atomics: a refusal outside the combinations"; cat emit.err ptxas.err; exit 1; }

# each disagreement, with both verdicts
awk -v target="$target" 'FILENAME == ARGV[1] { e[$1] = 1; next } FILENAME == ARGV[2] { p[$1] = 1; next }
  {
    i = FNR
    if (e[i] != p[i]) {
      bad++
      print (e[i] ? "ptxemit refuses" : "ptxemit accepts") ", ptxas " (p[i] ? "refuses" : "accepts") ": " $0
    } else if (!e[i]) ok++
  }
  END { printf "atomics on %s: %d combinations, %d accepted by both, %d refused by both, %d disagreements\n",
          target, FNR, ok, FNR - ok - bad, bad; exit bad > 0 }' emit.no ptxas.no combos >report
st=$?
cat report
test $st -eq 0 || exit 1

# the combinations ptxemit accepts, translated, assemble
awk -v f="$first" 'FILENAME == ARGV[1] { no[$1 + f - 1] = 1; next } !(FNR in no)' emit.no all.mir >ok.mir
"$ptxemit" ok.mir -o ok.ptx && "$ptxas" -arch="$arch" -c ok.ptx -o /dev/null
