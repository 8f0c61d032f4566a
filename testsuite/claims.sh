#!/bin/sh
# claims.sh SRCDIR: the manual's every/any/all/each sentences and the tests
# that prove them (testsuite/claims.txt) are still in step.
#
# claims.txt holds one entry per claim: a line "MANPAGE | PHRASE", PHRASE
# quoted verbatim from one source line of man/MANPAGE, then one or more
# indented lines "PATH" or "PATH | TEXT" naming what proves it: a file of the
# source tree that must exist and, with TEXT, hold TEXT verbatim (the Autotest
# group's title in a .at file, a case's expected message in its .err). Lines
# starting with # are comments. Prints every phrase the manual lost, every
# proof that is gone and every claim without one; exits 1 if there is any.
set -u
srcdir=$1
list=$srcdir/testsuite/claims.txt
test -r "$list" || { echo "claims: cannot read $list" >&2; exit 1; }

bad=0 nclaims=0 nproofs=0 proofs=0 page= phrase=
end_claim () {
  if test -n "$phrase" && test "$proofs" -eq 0; then
    echo "claims: no test named for: $page | $phrase"
    bad=1
  fi
}
while IFS= read -r line; do
  case $line in
    ''|'#'*) continue ;;
    ' '*|'	'*)
      test -n "$phrase" || { echo "claims: a proof before any claim: $line"; bad=1; continue; }
      item=`echo "$line" | sed 's/^[ 	]*//'`
      path=${item%% | *}
      text=
      case $item in *' | '*) text=${item#* | } ;; esac
      proofs=$((proofs + 1)) nproofs=$((nproofs + 1))
      if test ! -f "$srcdir/$path"; then
        echo "claims: $path is gone (proves: $phrase)"
        bad=1
      elif test -n "$text" && ! grep -F -e "$text" "$srcdir/$path" >/dev/null; then
        echo "claims: $path no longer holds '$text' (proves: $phrase)"
        bad=1
      fi
      ;;
    *)
      end_claim
      page=${line%% | *} phrase=${line#* | } proofs=0
      nclaims=$((nclaims + 1))
      if test ! -f "$srcdir/man/$page"; then
        echo "claims: no manual page man/$page"
        bad=1
      elif ! grep -F -e "$phrase" "$srcdir/man/$page" >/dev/null; then
        echo "claims: man/$page no longer says: $phrase"
        bad=1
      fi
      ;;
  esac
done <"$list"
end_claim
echo "claims: $nclaims sentences, $nproofs tests"
exit $bad
