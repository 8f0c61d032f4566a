#!/bin/sh
# ptxaslines.sh PTXAS FILE ARCH KEY: ptxas's verdict on every line of one PTX
# text, printed as "KEY VERDICT" (testsuite/sweepcache.sh keeps it).
#
# VERDICT is "ok" where ptxas assembles FILE for ARCH, else "no:L,L,..."
# naming every line it refuses, or "no" where it refuses FILE without naming
# a line. ptxas reports every line its parser refuses, but some checks (those
# of later phases) run only on a text the parser accepted: so the statements
# of the lines it named are blanked, a statement being a `.loc` line and the
# lines up to the next (labels kept, so that no branch loses its target), and
# ptxas is asked again, until it assembles what is left or names no new line.
# Line numbers do not move: a blanked line stays, empty.
# A fatal error with a line (ptxas stops at a video selector it cannot parse,
# "line N; fatal : Parsing error near '.b1024'") names its line too, one a
# round: those rounds are not counted against the limit of 8 on the others.
# -O0: the verdicts are the parser's and the code generator's, the same at
# every optimization level, and -O0 spares the optimizer's time on big texts.
# A verdict ptxas reached by crashing or running out of something (killed by
# a signal, an internal error, memory or file limits: testsuite/ptxasgone.sh)
# says nothing lasting about the text: it is printed with a third word,
# "transient", and the cache does not keep it, so the next run asks again.
set -u
ptxas=$1 file=$2 arch=$3 key=$4
work=$file.try
cp "$file" "$work" || exit 1
. "`dirname "$0"`/ptxasgone.sh"
lines=
round=0
gone=
while :; do
  "$ptxas" -O0 -arch="$arch" -c "$work" -o /dev/null >"$work.err" 2>&1
  st=$?
  if test $st -eq 0; then
    v=ok; test -n "$lines" && v=no:$lines
    break
  fi
  ptxas_gone $st "$work.err" && gone=" transient"
  new=`sed -n 's/^ptxas [^,]*, line \([0-9]*\); \(error\|fatal\).*/\1/p' "$work.err" | sort -un`
  test -n "$new" || { v=no; test -n "$lines" && v=no:$lines; test -z "$lines" && cp "$work.err" "$file.fatal"; break; }
  # the same lines again: ptxas refuses something blanking cannot remove
  fresh=`echo "$new" | awk -v had=",$lines," 'index(had, "," $1 ",") == 0'`
  test -n "$fresh" && test $round -lt 8 || { v=no:$lines; test -n "$fresh" && v=$v,`echo "$fresh" | paste -sd, -`; v=`echo "$v" | sed 's/:,/:/'`; break; }
  lines=`{ echo "$lines" | tr ',' '\n'; echo "$fresh"; } | grep . | sort -n | paste -sd, -`
  # a fatal error names one line and stops ptxas: such rounds, one a line,
  # do not count against the limit on the rounds of later phases
  grep '^ptxas [^,]*, line [0-9]*; fatal' "$work.err" >/dev/null && round=$((round - 1))
  echo "$fresh" | awk 'FILENAME == ARGV[1] { bad[$1] = 1; next }
    { text[FNR] = $0; isloc[FNR] = ($1 == ".loc") }
    END {
      # each refused line blanks its statement: back to its .loc, on to the next
      for (l = 1; l <= FNR; l++) if (l in bad) {
        if (text[l] ~ /^[ \t]*\./ && !isloc[l] && text[l] !~ /^[ \t]*\.(loc|pragma)/) { text[l] = ""; continue }
        s = l; while (s > 1 && !isloc[s] && text[s] !~ /^[ \t]*[{}]/) s--
        if (!isloc[s]) { text[l] = ""; continue }
        for (k = s; k <= FNR && (k == s || !isloc[k]) && text[k] !~ /^[ \t]*}/; k++)
          if (text[k] !~ /^[$A-Za-z_][$A-Za-z0-9_]*:$/) text[k] = ""
      }
      for (l = 1; l <= FNR; l++) print text[l]
    }' - "$work" >"$work.new" && mv "$work.new" "$work"
  round=$((round + 1))
done
rm -f "$work" "$work.err"
echo "$key $v$gone"
