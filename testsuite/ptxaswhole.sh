#!/bin/sh
# ptxaswhole.sh PTXAS FILE ARCH KEY: ptxas's verdict on one PTX text as a
# whole program (no -c: finalized as the driver loads a module), printed as
# "KEY VERDICT" (testsuite/sweepcache.sh keeps it).
#
# Finalizing adds checks that -c leaves to the linker, over the call graph: a
# kernel's static shared memory ("Entry function 'k' uses too much shared
# data") and one tcgen05 CTA granularity a function ("Function 'k' uses
# single CTA ... and CTA pair granularity"). ptxas names the function, not a
# line: VERDICT is "ok", or "no:L,L,..." naming the line of each refused
# function's .entry or .func header, or "no" where it names none.
# A verdict reached by crashing or running out of something is printed with
# a third word, "transient", and not cached (testsuite/ptxasgone.sh).
set -u
ptxas=$1 file=$2 arch=$3 key=$4
. "`dirname "$0"`/ptxasgone.sh"
gone=
"$ptxas" -O0 -arch="$arch" "$file" -o /dev/null >"$file.whole.err" 2>&1
st=$?
if test $st -eq 0; then
  v=ok
else
  ptxas_gone $st "$file.whole.err" && gone=" transient"
  names=`sed -n "s/^ptxas error *: *\(Entry \)\{0,1\}[Ff]unction '\([^']*\)'.*/\2/p" "$file.whole.err" | sort -u`
  lines=`for n in $names; do
    awk -v n="$n" '/^\.((visible|weak) +\.)?(entry|func)/ { s = $0; sub(/^.*(entry|func) +(\([^)]*\) +)?/, "", s); sub(/[( ].*/, "", s); if (s == n) print FNR }' "$file"
  done | sort -n | paste -sd, -`
  v=no; test -n "$lines" && v=no:$lines
fi
rm -f "$file.whole.err"
echo "$key $v$gone"
