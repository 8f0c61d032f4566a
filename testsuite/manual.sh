#!/bin/sh
# manual.sh SRCDIR PAGE...: every example in the manual pages runs.
#
# An example is a .nf ... .fi block in a page (the pages are SRCDIR/PAGE);
# the roff comments before it say what it is and what it runs with
# (testsuite/README.md, "The manual's examples"):
#   .\" example: KIND [OPTIONS]   the block's kind, ptxemit's options
#   .\" < TEXT                    a line of the input before the block's text
#   .\" > TEXT                    a line of the input after it
#   .\" ~ SED                     a sed command applied to the whole input
#   .\" $ COMMAND                 a shell command (kind command)
# KIND is one of
#   mir      the input (< lines, the block, > lines) translates with no
#            message, and ptxas assembles the PTX for its .target
#   output   the input (< and > lines) translates and assembles, and the
#            block's lines are consecutive lines of the PTX printed
#            (leading and trailing blanks aside)
#   error    the input fails (exit status 1) and the block is exactly the
#            messages on standard error
#   command  the $ commands, run in order in a directory holding the input as
#            k.mir, print exactly the block (standard output and error);
#            with the option joined, a line break and the blanks after it
#            count as one blank on both sides (a long line the page wraps)
#   run      the block is shell commands: after the $ commands, in the same
#            shell, they succeed (exit status 0) in a directory holding the
#            input as k.mir; skipped when they name ptxas and it is absent
#   none     not an example (a template, a grammar, a table): the rest of
#            the line says what it is
# The input is written as k.mir, the name the pages' messages use. Each
# example runs in manual.d/N under the current directory. Prints one line per
# failure and the counts; exits 1 when an example fails or a block has no
# kind. ptxemit is the one on PATH; PTXAS (the environment) assembles, and
# nothing is assembled where it is unset or not executable.
set -u
srcdir=$1; shift
. "$srcdir/testsuite/ptxasarch.sh"
work=`pwd`/manual.d
rm -rf "$work" && mkdir -p "$work" || exit 1

# Split every page into its examples: manual.d/N/{where,kind,shown,input,cmds}.
for page in "$@"; do
  awk -v page="$page" -v work="$work" -v first="`ls "$work" | wc -l`" '
    function decode(s) {
      gsub(/\\e/, "\001", s); gsub(/\\&/, "", s); gsub(/\\-/, "-", s)
      gsub(/\\\(dq/, "\"", s); gsub(/\\\(aq/, "\047", s); gsub(/\\f[IPBR]/, "", s)
      gsub(/\001/, "\\", s)
      return s
    }
    function reset() { kind = ""; nb = 0; na = 0; nc = 0; ns = 0 }
    function ctx(line, prefix) { s = substr(line, length(prefix) + 1); sub(/^ /, "", s); return s }
    BEGIN { n = first; reset() }
    /^\.\\" example:/ { reset(); kind = $0; sub(/^\.\\" example: */, "", kind); where = page ":" FNR; next }
    /^\.\\" <( |$)/ { before[++nb] = ctx($0, ".\\\" <"); next }
    /^\.\\" >( |$)/ { after[++na] = ctx($0, ".\\\" >"); next }
    /^\.\\" ~ / { sedc[++ns] = ctx($0, ".\\\" ~"); next }
    /^\.\\" \$ / { cmd[++nc] = ctx($0, ".\\\" $"); next }
    /^\.nf/ {
      d = work "/" ++n; system("mkdir -p \"" d "\"")
      if (kind == "") where = page ":" FNR
      print where > (d "/where"); print (kind == "" ? "unmarked" : kind) > (d "/kind")
      printf "" > (d "/input"); printf "" > (d "/cmds"); printf "" > (d "/shown"); printf "" > (d "/sed")
      for (i = 1; i <= nb; i++) print before[i] > (d "/before")
      for (i = 1; i <= na; i++) print after[i] > (d "/after")
      for (i = 1; i <= nc; i++) print cmd[i] > (d "/cmds")
      for (i = 1; i <= ns; i++) print sedc[i] > (d "/sed")
      inblock = 1; next
    }
    inblock && /^\.fi/ { inblock = 0; close(d "/shown"); close(d "/before"); close(d "/after"); reset(); next }
    inblock && /^\.[a-z]/ { next }
    inblock { print decode($0) > (d "/shown"); next }
  ' "$srcdir/$page" || exit 1
done

fail=0 run=0 notex=0
failed () { echo "$where: $kind: $*"; fail=`expr $fail + 1`; }
assemble () {
  test -n "${PTXAS-}" && test -x "$PTXAS" || return 0
  t=`sed -n 's/^\.target[ 	]*\(sm_[0-9a-z]*\).*/\1/p' "$1" | head -n 1`
  # a whole program unless it declares something extern but dynamic shared
  # memory (as px_assemble in testsuite/local.at)
  link=
  grep '^\.extern' "$1" | grep -v '^\.extern[ 	][ 	]*\.shared' >/dev/null && link=-c
  "$PTXAS" -arch=`ptxas_arch "$t"` $link "$1" -o /dev/null 2>ptxas.err ||
    { failed "ptxas refuses the PTX:"; cat ptxas.err; }
}
for d in `ls "$work" | sort -n`; do
  d=$work/$d
  where=`cat "$d/where"` kind=`cat "$d/kind"`
  set -- $kind; k=$1; shift; opts="$*"
  ( cd "$d" && {
    case $k in mir) cat before shown after ;; *) cat before after ;; esac 2>/dev/null >k.mir
    test -s sed && { sed -f sed k.mir >k.sed && mv k.sed k.mir; }
  } )
  case $k in
    none) notex=`expr $notex + 1`; test -n "$opts" || failed "no reason given"; continue ;;
    unmarked) failed "a .nf block with no '.\\\" example:' kind"; continue ;;
  esac
  run=`expr $run + 1`
  cd "$d" || exit 1
  case $k in
    mir)
      ptxemit $opts k.mir -o k.ptx 2>k.err; st=$?
      if test $st != 0 || test -s k.err; then failed "exit status $st:"; cat k.err
      else assemble k.ptx; fi ;;
    output)
      ptxemit $opts k.mir -o k.ptx 2>k.err; st=$?
      if test $st != 0; then failed "exit status $st:"; cat k.err
      else
        assemble k.ptx
        awk 'function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
          NR == FNR { want[++nw] = trim($0); next }
          { got[++ng] = trim($0) }
          END {
            for (i = 1; i + nw - 1 <= ng; i++) {
              for (j = 1; j <= nw && got[i + j - 1] == want[j]; j++) ;
              if (j > nw) exit 0
            }
            exit 1
          }' shown k.ptx || { failed "the lines shown are not in the output:"; cat k.ptx; }
      fi ;;
    error)
      ptxemit $opts k.mir -o k.ptx 2>k.err; st=$?
      test $st = 1 || failed "exit status $st, not 1"
      diff shown k.err >k.diff || { failed "the messages differ:"; cat k.diff; } ;;
    command)
      while IFS= read -r c; do sh -c "$c" 2>&1; done <cmds >k.out
      if test "$opts" = joined; then
        for f in shown k.out; do
          awk '{ sub(/^[ \t]+/, ""); printf "%s%s", (NR > 1 ? " " : ""), $0 } END { print "" }' $f >$f.j
        done
        diff shown.j k.out.j >k.diff
      else
        diff shown k.out >k.diff
      fi || { failed "the output differs:"; cat k.diff; } ;;
    run)
      if grep ptxas shown >/dev/null && ! { test -n "${PTXAS-}" && test -x "$PTXAS"; }; then
        echo "$where: skipped: no ptxas"
      else
        cat cmds shown >k.sh
        ( test -n "${PTXAS-}" && PATH=`dirname "$PTXAS"`:$PATH; sh -e k.sh ) >k.out 2>&1 ||
          { failed "the commands fail:"; cat k.out; }
      fi ;;
    *) failed "unknown kind '$k'" ;;
  esac
  cd "$work" || exit 1
done
echo "manual: `ls "$work" | wc -l | tr -d ' '` blocks, $run examples run, $notex not examples, $fail failed"
test $fail = 0
