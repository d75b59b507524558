#!/usr/bin/env bash
# vendor.sh reproduces web/vendor/ from the npm registry: the minified
# build of cytoscape the graph view draws with, and its licence. Run it
# from anywhere; it needs npm and network, which the build does not.
set -euo pipefail
NAME=cytoscape
VERSION=3.35.0
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$NAME@$VERSION" >/dev/null && tar xzf "$NAME-$VERSION.tgz")
mkdir -p "$here/vendor"
cp "$tmp/package/dist/cytoscape.min.js" "$here/vendor/cytoscape.min.js"
cp "$tmp/package/LICENSE" "$here/vendor/LICENSE.cytoscape"
echo "$NAME@$VERSION" > "$here/vendor/VERSION"
sha256sum "$here/vendor/cytoscape.min.js"
