# ptxasarch.sh, sourced: ptxas_arch TARGET prints the -arch ptxas is given for
# a .target: the one `ptxemit --list-targets` names (data/targets.yaml's
# ptxas: column; the suite's ptxas is CUDA 13's: it applies sm_70's and
# sm_72's rules under sm_75, and knows sm_101 as sm_110), the target's own
# name where it names none. PTXEMIT is the ptxemit asked (default: the one on
# PATH).
ptxas_arch () {
  "${PTXEMIT:-ptxemit}" --list-targets |
    awk -v t="$1" '$1 == t { for (i = 2; i < NF; i++) if ($i ~ /^-arch=/) a = substr($i, 7) } END { print a == "" ? t : a }'
}
