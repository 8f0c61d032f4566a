# ptxas -v's lines as ptxemit --resource-usage words them: a second reader,
# written apart from src/cubin/messages.c, for testsuite/cubin.at.
/Compiling entry function/ { split($0, q, "'"); cur = q[2]; kind[cur] = "kernel"; order(cur) }
/Function properties for/ { cur = $NF; order(cur) }
/bytes stack frame/ { st[cur] = $1; ss[cur] = $5; sl[cur] = $9 }
/Used [0-9]+ registers/ {
  n = split($0, part, ",")
  for (i = 1; i <= n; i++) {
    if (part[i] ~ /registers/) { match(part[i], /[0-9]+/); rg[cur] = substr(part[i], RSTART, RLENGTH) }
    if (part[i] ~ /barriers/) { match(part[i], /[0-9]+/); br[cur] = substr(part[i], RSTART, RLENGTH) }
    if (part[i] ~ /smem/) { match(part[i], /[0-9]+/); sh[cur] = substr(part[i], RSTART, RLENGTH) }
    if (part[i] ~ /lmem/) { match(part[i], /[0-9]+/); lm[cur] = substr(part[i], RSTART, RLENGTH) }
    if (part[i] ~ /cmem/) { match(part[i], /[0-9]+/); cm[cur] += substr(part[i], RSTART, RLENGTH) }
  }
}
function order(f) { if (!(f in seen)) { seen[f] = 1; list[++nf] = f } }
END {
  for (i = 1; i <= nf; i++) {
    f = list[i]
    printf "%s '%s' uses %d registers, %d barriers, %d bytes stack, %d bytes spill stores, %d bytes spill loads, %d bytes shared, %d bytes local, %d bytes constant\n", \
      (f in kind ? "kernel" : "function"), f, rg[f], br[f], st[f], ss[f], sl[f], sh[f], lm[f], cm[f]
  }
}
