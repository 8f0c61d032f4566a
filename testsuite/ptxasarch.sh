# ptxasarch.sh, sourced: ptxas_arch TARGET prints the -arch ptxas 13 is given
# for a .target: it cannot generate code for sm_70 and sm_72 (it applies their
# rules under sm_75) nor for sm_101 (renamed sm_110).
ptxas_arch () {
  case $1 in
    sm_70|sm_72) echo sm_75 ;;
    sm_101) echo sm_110 ;;
    sm_101f) echo sm_110f ;;
    *) echo "$1" ;;
  esac
}
