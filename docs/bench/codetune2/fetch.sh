#!/bin/sh
# fetch.sh DIR: fetches the repositories of the code-search benchmark
# (docs/bench/codetune2) that repos.tsv lists into DIR, one directory per
# repository, at the pinned versions (../fetch-repos.sh). Nothing fetched
# is committed; every version is pinned, so the qrels' line ranges hold.
#
#   sh docs/bench/codetune2/fetch.sh /tmp/fileinfo-bench-codetune2
#   fileinfo bench code docs/bench/codetune2 --repos /tmp/fileinfo-bench-codetune2
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../fetch-repos.sh" "$here/repos.tsv" "${1:-/tmp/fileinfo-bench-codetune2}"
