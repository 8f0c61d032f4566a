# ptxasgone.sh, sourced by testsuite/ptxaslines.sh:
# ptxas_gone STATUS ERRFILE succeeds where a failed ptxas run judged nothing
# about its text, so that its verdict must not be kept: ptxas was killed by a
# signal (a crash; status 128 + the signal, ptxas's own refusals end with 255),
# or it reports an internal error or running out of memory, file descriptors
# or disk.
ptxas_gone () {
  test "$1" -gt 128 && test "$1" -ne 255 && return 0
  grep -i -e 'internal error' -e 'internal compiler' -e 'out of memory' -e 'memory allocation' -e 'bad_alloc' \
    -e 'cannot allocate' -e 'too many open files' -e 'no space left' "$2" >/dev/null
}
