# descwords.sh CASE.mir CUBIN: every word a descriptor case's comments work
# out from the PTX ISA's tables (a comment line ending "= 0x...") is an
# immediate of the cubin ptxas made from the case's PTX, so ptxas read the
# printed constant (decimal; a 64-bit one with the top bit set as a negative
# number) as that word. A 64-bit word is looked for by its high half: the
# low half holds the start address's bits, which ptxas folds in.
hex=`od -An -v -tx1 "$2" | tr -d ' \n'`
status=0
words=`sed -n 's/^;.*= 0x\([0-9a-fA-F]*\)$/\1/p' "$1" | tr A-F a-f`
test -n "$words" || { echo "$1 works out no word"; exit 1; }
for w in $words; do
  case ${#w} in
  16) h=`echo $w | cut -c1-8` ;;
  8) h=$w ;;
  *) echo "0x$w is neither 32 nor 64 bits"; status=1; continue ;;
  esac
  le=`echo $h | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/'`
  case $hex in
  *$le*) ;;
  *) echo "0x$w: 0x$h is no immediate of $2"; status=1 ;;
  esac
done
exit $status
