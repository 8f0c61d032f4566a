# sweepcache.sh: the target sweep's ptxas-verdict cache, sourced with $cache set
# (testsuite/tensorcombos.sh, testsuite/combosruled.sh; testsuite/sweep.at tests
# it alone; the prover, testsuite/prover/vcache.c, keeps the same format and lock),
# and the hash program both name their modules with.
#
# A verdict line is "KEY VERDICT": KEY is HEX:ARCH:HEX, VERDICT ok, no, or
# no:L,L,... naming the lines of the text ptxas refuses (testsuite/ptxaslines.sh).
# Several sweeps may share one cache at once: each appends its new lines in
# one go under a lock (flock on the cache file, or a lock directory where
# there is no flock), and a reader takes a verdict only from well-formed lines
# that agree, so a torn, merged or duplicated line never decides one (a key
# left without a verdict is asked again). A verdict ptxas reached by crashing
# or running out of something is never kept: the next run asks again.

# the first of sha256sum, sha1sum and md5sum there is, in $hash (empty: none)
pick_hash () {
  hash=
  for h in sha256sum sha1sum md5sum; do
    if command -v $h >/dev/null 2>&1; then hash=$h; return; fi
  done
}

# the verdicts the cache holds, "KEY VERDICT": one per key from well-formed
# lines; a key whose lines disagree has none
cache_verdicts () {
  awk 'NF == 2 && ($2 == "ok" || $2 ~ /^no(:[0-9]+(,[0-9]+)*)?$/) && $1 ~ /^[0-9a-f]+:sm_[0-9a-z]+:[0-9a-f]+$/ {
      if (!($1 in v)) { v[$1] = $2; k[++n] = $1 } else if (v[$1] != $2) bad[$1] = 1
    }
    END { for (i = 1; i <= n; i++) if (!(k[i] in bad)) print k[i], v[k[i]] }' "$cache"
}

# append the file $1 to the cache while holding the cache's lock
append_cache () {
  if command -v flock >/dev/null 2>&1; then
    flock "$cache" sh -c 'cat "$1" >>"$2"' sh "$1" "$cache"
    return
  fi
  tries=0
  until mkdir "$cache.lock" 2>/dev/null; do
    tries=$((tries + 1))
    # a lock held this long is a killed sweep's: take it over
    test "$tries" -lt 120 || { rmdir "$cache.lock" 2>/dev/null; tries=0; }
    sleep 1
  done
  cat "$1" >>"$cache"
  st=$?
  rmdir "$cache.lock"
  return $st
}

# ptxas's verdicts on texts: $1 holds "FILE ARCH" lines, "FILE VERDICT" lines
# go to $2 (VERDICT as testsuite/ptxaslines.sh gives it); texts the cache
# knows are not asked again, the rest are asked $jobs at a time and their
# verdicts appended to the cache. Needs $srcdir, $ptxas, $hash, $cache, $jobs.
# The KEY's first part names ptxas's version and the options it is run with.
# ask SCRIPT KEYS: the texts of KEYS ("FILE ARCH KEY" lines) whose key the
# cache does not hold go to testsuite/SCRIPT, JOBS at a time, and its verdicts
# into the cache; KEYS.known holds the cache's verdicts, KEYS.new this run's,
# and asked how many texts were asked.
ask () {
  cache_verdicts >"$2.known"
  awk 'FILENAME == ARGV[1] { seen[$1] = 1; next }
    !($3 in seen) && !($3 in todo) { todo[$3] = 1; print $1, $2, $3 }' "$2.known" "$2" >"$2.todo"
  asked=`wc -l <"$2.todo" | tr -d ' '`
  : >"$2.new"
  test "$asked" -gt 0 || return 0
  xargs -P "$jobs" -n 3 sh "$srcdir/testsuite/$1" "$ptxas" <"$2.todo" >"$2.new" || return 1
  test `wc -l <"$2.new"` -eq "$asked" || { echo "$1: ptxas gave no verdict for some texts" >&2; return 1; }
  # a verdict with a third word, "transient" (ptxas crashed or ran out of
  # something: testsuite/ptxasgone.sh), serves this run and is not kept
  awk 'NF == 2' "$2.new" >"$2.keep"
  append_cache "$2.keep"
}

judge_texts () {
  pver=`{ "$ptxas" --version 2>&1; echo -O0 lines; } | $hash | cut -c1-16`
  test -s "$1" || { : >"$2"; return 0; }
  cut -d' ' -f1 "$1" | xargs $hash | sed 's/^\([0-9a-f]*\) *\**\(.*\)/\2 \1/' >"$1.hash" || return 1
  awk -v p="$pver" 'FILENAME == ARGV[1] { h[$1] = $2; next }
    { print $1, $2, p ":" $2 ":" h[$1] }' "$1.hash" "$1" >"$1.keys"
  ask ptxaslines.sh "$1.keys" || return 1
  judged=$asked
  # this run's own answers first: another sweep may have written a
  # disagreeing line for one of them meanwhile
  awk 'FILENAME != ARGV[3] { if (!($1 in v)) v[$1] = $2; next } { print $1, v[$3] }' \
    "$1.keys.new" "$1.keys.known" "$1.keys" >"$2"
}
