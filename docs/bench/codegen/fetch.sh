#!/bin/sh
# fetch.sh DIR: fetches the repositories of the generated code-search
# benchmark (docs/bench/codegen, listed in repos.tsv) into DIR, one
# directory per name, at the pinned versions. Nothing fetched is
# committed (../fetch-repos.sh). Then run `fileinfo bench code-gen`
# (see README.md), which blanks the doc comments the queries come from.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../fetch-repos.sh" "$here/repos.tsv" "${1:-/tmp/fileinfo-bench-codegen}"
