#!/bin/sh
# srctree.sh SRCDIR: what git shows of the source tree (`git status
# --porcelain`, every untracked file by name), for `make check` to compare
# before and after the suite: a test or script that writes into the source
# tree instead of the build directory fails check. Prints nothing and exits
# 77 where SRCDIR is not the top of a git checkout (a tarball's tree, or one
# unpacked inside another checkout, as make distcheck does) or git is missing.
top=`git -C "$1" rev-parse --show-toplevel 2>/dev/null` || exit 77
test "$top" = "`cd "$1" && pwd -P`" || exit 77
git -C "$1" status --porcelain --untracked-files=all
