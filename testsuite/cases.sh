#!/bin/sh
# cases.sh SRCDIR [at]: the suite's cases, found from their files.
#
# A case is testsuite/cases/FAMILY/NAME.mir with one or more expectations
# beside it, each a test group (local.at's PX_CASE says what each checks):
#   NAME.ptx      the PTX printed
#   NAME.isel     what --emit=isel prints
#   NAME.err      standard error, exactly (an empty file: nothing is printed)
#   NAME.json     standard error with --diagnostics-format=json
#   NAME.remarks  standard error with --remarks
# The case's first line may give the options it runs with and the exit status
# of its .err and .json runs, as ";" comments, either or both:
#   ; ptxemit: --target=sm_86 -Wno-tma-wait ; status: 2
# Without a status, it is 1 when NAME.err or NAME.json holds an error and 0
# when it holds none (warnings, notes, remarks or nothing): the exit status
# ptxemit promises for the messages it prints.
#
# Prints a line a case, "FAMILY/NAME STATUS KINDS [OPTIONS...]", KINDS the
# expectations comma-separated (the target sweep reads these: testsuite/swept.sh); with "at",
# the Autotest text that runs them, one PX_CASE line a case
# (testsuite/cases.at, made by make). Exits 1, naming the file, on a .mir
# with no expectation, an expectation with no .mir (what a written test in a
# .at file compares with ends in .out or .txt), a first line it cannot read,
# an option that is not a plain shell word, or a case macro line left in a
# .at file (the cases were macro lines there once; a line there now would
# run nothing).
set -u
srcdir=$1 mode=${2-list}
LC_ALL=C
export LC_ALL
grep -En '^PX_(PTX|ISEL|ERR|HOSTILE|WARN|QUIET|REMARKS?|CUBIN)_CASE\(' "$srcdir"/testsuite/*.at |
  sed 's|^.*/\(testsuite/[^:]*:[0-9]*\):\([A-Z_]*\).*|cases.sh: \1: \2 runs nothing: a case is its files (testsuite/README.md)|' |
  grep . >&2 && exit 1
cd "$srcdir/testsuite/cases" || exit 1

for f in */*.ptx */*.isel */*.err */*.json */*.remarks; do
  test ! -f "$f" || test -f "${f%.*}.mir" || echo "$f"
done | sed 's|.*|cases.sh: testsuite/cases/&: no .mir beside it|' | grep . >&2 && exit 1

for mir in */*.mir; do
  stem=${mir%.mir} kinds=
  for k in ptx isel err json remarks; do
    test -f "$stem.$k" && kinds=$kinds,$k
  done
  echo "$stem ${kinds#,}"
done | awk -v mode="$mode" '
  function fail(msg) { print "cases.sh: testsuite/cases/" msg >"/dev/stderr"; bad = 1 }
  # whether FILE has a line matching RE
  function holds(file, re,   l, found) {
    found = 0
    while ((getline l < file) > 0) if (l ~ re) { found = 1; break }
    close(file)
    return found
  }
  BEGIN {
    if (mode == "at") {
      print "# The cases under testsuite/cases, one PX_CASE line each (local.at),"
      print "# written by testsuite/cases.sh from the files: edit those, not this."
    }
  }
  {
    stem = $1; kinds = $2; mir = stem ".mir"
    if (kinds == "") { fail(mir ": no expectation beside it (.ptx, .isel, .err, .json or .remarks)"); next }
    opts = ""; status = ""
    if ((getline line < mir) > 0) {
      sub(/\r$/, "", line)
      if (line ~ /^;[ \t]*(ptxemit|status):/) {
        n = split(substr(line, 2), part, ";")
        for (i = 1; i <= n; i++) {
          p = part[i]; gsub(/^[ \t]+|[ \t]+$/, "", p)
          if (p ~ /^ptxemit:/) { sub(/^ptxemit:[ \t]*/, "", p); opts = p }
          else if (p ~ /^status:[ \t]*[0-9]+$/) { sub(/^status:[ \t]*/, "", p); status = p }
          else fail(mir ":1: expected \"ptxemit: OPTIONS\" or \"status: N\", not \"" p "\"")
        }
        if (opts ~ /[^-A-Za-z0-9_.,=+:\/ \t]/) fail(mir ":1: an option is not a plain word: " opts)
        gsub(/[ \t]+/, " ", opts)
      }
    }
    close(mir)
    if (status == "") {
      status = 0
      if (kinds ~ /(^|,)err(,|$)/ && holds(stem ".err", "^[^ \t]+: error: ")) status = 1
      if (kinds ~ /(^|,)json(,|$)/ && holds(stem ".json", "\"severity\": \"error\"")) status = 1
    }
    if (mode != "at") { print stem, status, kinds (opts == "" ? "" : " " opts); next }
    family = stem; sub(/\/.*/, "", family)
    if (family != last) { printf "\nAT_BANNER([cases/%s])\n", family; last = family }
    gsub(/,/, " ", kinds)
    printf "PX_CASE([%s], [%s], [%s], [%s])\n", stem, kinds, opts, status
  }
  END { exit bad }
'
