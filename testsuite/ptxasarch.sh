# ptxasarch.sh, sourced: ptxas_arch TARGET prints the -arch ptxas is given for
# a .target, the ptxas: column of data/targets.yaml (the suite's ptxas is CUDA
# 13's: it applies sm_70's and sm_72's rules under sm_75, and knows sm_101 as
# sm_110); the target's own name where the row has none.
px_targets_yaml=${abs_top_srcdir:-${srcdir:-`dirname "$0"`/..}}/data/targets.yaml
ptxas_arch () {
  px_a=`sed -n "s/^ *- {name: $1,.* ptxas: {[^}]*arch: \([a-z0-9_]*\).*/\1/p" "$px_targets_yaml"`
  echo "${px_a:-$1}"
}
