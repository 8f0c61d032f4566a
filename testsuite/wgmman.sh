#!/bin/sh
# wgmman.sh PTXEMIT: the N ptxemit accepts in wgmma.mma_async and
# wgmma.mma_async.sp, for every type combination, among N = 1 ... 320.
#
# One sm_90a module holds one statement per operation, type combination and N
# (m64nNkK with the K of the types, D of N/2 registers or, for f16, N/4);
# ptxemit (--max-errors=0) reports every line it refuses. Prints, per
# operation and types, the N it accepts, then how many lines it refused with
# each message (the shape and types replaced by "..."). testsuite/tensorcombos.sh
# has ptxas assemble every N --describe lists.
set -u
ptxemit=$1

# "OP TYPES K DREG TAIL": TYPES as D.A.B, K the dense or sparse K, DREG f (N/2
# f32), h (N/4 b32: f16 pairs) or s (N/2 s32), TAIL the operands after B
cat >forms <<'EOF'
wgmma.mma_async f32.f16.f16 16 f 1, 1, 1, 0, 0
wgmma.mma_async f32.bf16.bf16 16 f 1, 1, 1, 0, 0
wgmma.mma_async f16.f16.f16 16 h 1, 1, 1, 0, 0
wgmma.mma_async f32.tf32.tf32 8 f 1, 1, 1
wgmma.mma_async f32.e4m3.e4m3 32 f 1, 1, 1
wgmma.mma_async f32.e4m3.e5m2 32 f 1, 1, 1
wgmma.mma_async f32.e5m2.e4m3 32 f 1, 1, 1
wgmma.mma_async f32.e5m2.e5m2 32 f 1, 1, 1
wgmma.mma_async f16.e4m3.e5m2 32 h 1, 1, 1
wgmma.mma_async s32.s8.s8 32 s 1
wgmma.mma_async s32.u8.u8 32 s 1
wgmma.mma_async s32.s8.u8 32 s 1
wgmma.mma_async s32.u8.s8 32 s 1
wgmma.mma_async s32.b1.b1.and.popc 256 s 1
wgmma.mma_async.sp f32.f16.f16 32 f %meta, 0, 1, 1, 1, 0, 0
wgmma.mma_async.sp f32.bf16.bf16 32 f %meta, 0, 1, 1, 1, 0, 0
wgmma.mma_async.sp f16.f16.f16 32 h %meta, 0, 1, 1, 1, 0, 0
wgmma.mma_async.sp f32.tf32.tf32 16 f %meta, 0, 1, 1, 1
wgmma.mma_async.sp f32.e4m3.e5m2 64 f %meta, 0, 1, 1, 1
wgmma.mma_async.sp f16.e5m2.e4m3 64 h %meta, 0, 1, 1, 1
wgmma.mma_async.sp s32.s8.s8 64 s %meta, 0, 1
wgmma.mma_async.sp s32.u8.u8 64 s %meta, 0, 1
wgmma.mma_async.sp s32.s8.u8 64 s %meta, 0, 1
wgmma.mma_async.sp s32.u8.s8 64 s %meta, 0, 1
EOF

# the module; line L of it is statement L - first + 1 of "lines"
awk -v top=320 '
  { op[NR] = $1; ty[NR] = $2; k[NR] = $3; dr[NR] = $4; t = $0; sub(/^[^ ]* [^ ]* [^ ]* [^ ]* /, "", t); tail[NR] = t }
  END {
    print "target sm_90a"
    print "kernel @k(%da: u64, %db: u64, %meta: b32) {"
    for (c = 1; c <= top / 2; c++) {
      print "  %f" c ":f32[" c "] = mov 0.0"
      print "  %s" c ":s32[" c "] = mov 0"
      print "  %h" c ":b32[" c "] = mov 0"
    }
    for (i = 1; i <= NR; i++)
      for (n = 1; n <= top; n++) {
        c = int(dr[i] == "h" ? n / 4 : n / 2); if (c < 1) c = 1
        v = "%" dr[i] c
        printf "  %s = %s.m64n%dk%d.%s %s, %%da, %%db, %s\n", v, op[i], n, k[i], ty[i], v, tail[i]
        print op[i], ty[i], n >"lines"
      }
    print "  ret"
    print "}"
  }' forms >n.mir
first=`grep -n 'wgmma' n.mir | head -n 1 | cut -d: -f1`
"$ptxemit" --max-errors=0 --verify-only n.mir 2>n.err
sed -n 's/^n\.mir:\([0-9]*\):[0-9]*: error: \(.*\)/\1 \2/p' n.err |
  awk -v f="$first" '{ $1 = $1 - f + 1; print }' >refused
awk 'FILENAME == ARGV[1] { no[$1] = 1; next }
  { key = $1 " " $2; if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
    if (!(FNR in no)) acc[key] = acc[key] " " $3 }
  END { for (i = 1; i <= nk; i++) print order[i] ":" acc[order[i]] }' refused lines
sed -e 's/^[0-9]* //' -e "s/wgmma[.a-z_]*\.m64n[0-9]*k[0-9]* with D [^ ]*, A [^ ]* and B [^ ]*/.../" \
  -e "s/'\.m64n[0-9]*k[0-9]*' for wgmma[.a-z_]*; did you mean '[^']*'?/.../" \
  -e "s/'\.m64n[0-9]*k[0-9]*' for wgmma[.a-z_]*/.../" refused | sort | uniq -c | sed 's/^ */refused /'
