# sweepcache.sh: the target sweep's ptxas-verdict cache, sourced with $cache set
# (testsuite/sweep.sh, testsuite/tensorcombos.sh; testsuite/sweep.at tests it alone),
# and the hash program both name their modules with.
#
# A verdict line is "KEY VERDICT": KEY is HEX:ARCH:HEX, VERDICT ok or no.
# Several sweeps may share one cache at once: each appends its new lines in
# one go under a lock (flock on the cache file, or a lock directory where
# there is no flock), and a reader takes a verdict only from well-formed lines
# that agree, so a torn, merged or duplicated line never decides one (a key
# left without a verdict is asked again).

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
  awk 'NF == 2 && ($2 == "ok" || $2 == "no") && $1 ~ /^[0-9a-f]+:sm_[0-9a-z]+:[0-9a-f]+$/ {
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
