#!/bin/sh
# fetch.sh DIR: fetches the repositories of the code-search benchmark
# with tests as distractors (docs/bench/codetests) that repos.tsv lists
# into DIR, one directory per name, at the pinned versions
# (../fetch-repos.sh). Nothing fetched is committed.
#
#   sh docs/bench/codetests/fetch.sh /tmp/fileinfo-bench-codetests
#   fileinfo bench code docs/bench/codetests --repos /tmp/fileinfo-bench-codetests
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../fetch-repos.sh" "$here/repos.tsv" "${1:-/tmp/fileinfo-bench-codetests}"
