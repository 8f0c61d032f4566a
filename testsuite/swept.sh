# swept.sh, sourced by testsuite/sweep.at for the prover (testsuite/prover/sweep.c):
# swept_cases SRCDIR prints the MIR files the suite expects ptxemit to accept,
# "MIR-PATH [OPTIONS...]", paths relative to SRCDIR, sorted: the cases with a
# .ptx or .isel expectation with their first line's options
# (testsuite/cases.sh), the examples and ISA probes the PX_EXAMPLE and
# PX_ISA_PROBE lines of the .at files name, and the execution tests' kernels.
swept_cases () {
  sh "$1/testsuite/cases.sh" "$1" >"$work/list" || return 1
  {
    awk '$3 ~ /(^|,)(ptx|isel)(,|$)/ {
      printf "testsuite/cases/%s.mir", $1
      for (i = 4; i <= NF; i++) printf " %s", $i
      print ""
    }' "$work/list"
    for at in "$1"/testsuite/*.at; do
      awk '
        /^[ \t]*PX_EXAMPLE\(\[/ { s = $0; sub(/^[^[]*\[/, "", s); sub(/\].*/, "", s); print "examples/" s ".mir" }
        /^[ \t]*PX_ISA_PROBE\(\[/ { s = $0; sub(/^[^[]*\[/, "", s); sub(/\].*/, "", s); print "testsuite/isa/" s ".mir" }
      ' "$at"
    done
    for k in "$1"/testsuite/gpu/*.mir; do echo "testsuite/gpu/${k##*/}"; done
  } | sed 's/ *$//' | sort -u
}
