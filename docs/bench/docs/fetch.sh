#!/bin/sh
# fetch.sh lays out the doc sets of `fileinfo bench docs` under OUT
# (default /tmp/fileinfo-docsbench), one directory per set, from pinned
# packages: Debian's Sphinx sources of Python 3.11, Flask, Click and
# Requests (their _sources/*.rst.txt, renamed *.rst), and the Hugo site of
# cobra from the Go module cache, and the markdown docs fastify ships in
# its npm package. Nothing here is committed: run it again
# to make the same corpora. Needs root for apt-get (or the packages
# installed), go and npm.
set -eu
OUT=${1:-/tmp/fileinfo-docsbench}

# Debian bookworm versions; a security update may replace one, which the
# install then reports (the pages barely move between such revisions).
PKGS="python3.11-doc=3.11.2-6+deb12u9 python-flask-doc=2.2.2-3 python-click-doc=8.1.3-2 python-requests-doc=2.28.1+dfsg-1"
COBRA=github.com/spf13/cobra@v1.9.1
FASTIFY=fastify@4.28.1

missing=""
for p in $PKGS; do
	name=${p%%=*}
	dpkg -s "$name" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	apt-get install -y $missing || apt-get install -y $(for p in $missing; do echo "${p%%=*}"; done)
fi

# sources DIR SET copies a Sphinx _sources tree, *.rst.txt as *.rst.
sources() {
	rm -rf "$OUT/$2"
	mkdir -p "$OUT/$2"
	(cd "$1" && find . -name '*.rst.txt' -type f) | while read -r f; do
		dst="$OUT/$2/${f%.txt}"
		mkdir -p "$(dirname "$dst")"
		cp "$1/$f" "$dst"
	done
}
sources /usr/share/doc/python3.11/html/_sources python
sources /usr/share/doc/python-flask-doc/html/_sources flask
sources /usr/share/doc/python-click-doc/html/_sources click
sources /usr/share/doc/python-requests-doc/html/_sources requests

dir=$(go mod download -json "$COBRA" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
rm -rf "$OUT/cobra"
mkdir -p "$OUT/cobra"
cp "$dir/README.md" "$OUT/cobra/"
(cd "$dir/site/content" && find . -name '*.md' -type f) | while read -r f; do
	mkdir -p "$OUT/cobra/$(dirname "$f")"
	cp "$dir/site/content/$f" "$OUT/cobra/$f"
done
tmp=$(mktemp -d)
(cd "$tmp" && npm pack --silent "$FASTIFY" >/dev/null && tar xzf fastify-*.tgz)
rm -rf "$OUT/fastify"
mkdir -p "$OUT/fastify"
(cd "$tmp/package/docs" && find . -name '*.md' -type f) | while read -r f; do
	mkdir -p "$OUT/fastify/$(dirname "$f")"
	cp "$tmp/package/docs/$f" "$OUT/fastify/$f"
done
rm -rf "$tmp"
chmod -R u+w "$OUT"
for s in python flask click requests cobra fastify; do
	printf '%-9s %4d pages\n' "$s" "$(find "$OUT/$s" -type f | wc -l)"
done
