#!/bin/sh
# fetch.sh DIR: fetches the repositories of the code-search benchmark
# with tests as distractors (docs/bench/codetests) into DIR, one
# directory per name in repos.tsv, at the pinned versions. Nothing
# fetched is committed. Needs npm.
#
#   sh docs/bench/codetests/fetch.sh /tmp/fileinfo-bench-codetests
#   fileinfo bench code docs/bench/codetests --repos /tmp/fileinfo-bench-codetests
set -eu
dir=${1:-/tmp/fileinfo-bench-codetests}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

npmpkg() { # name package version
	[ -d "$dir/$1" ] && return
	(cd "$tmp" && npm pack --silent "$2@$3" >/dev/null && mkdir "$1" && tar xzf ./*.tgz -C "$1" && rm ./*.tgz)
	mv "$tmp/$1/package" "$dir/$1"
}

npmpkg fastify fastify 4.28.1
npmpkg pino pino 9.5.0
