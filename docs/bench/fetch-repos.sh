#!/bin/sh
# fetch-repos.sh REPOS DIR: fetches the repositories a code-search data
# set's repos.tsv (REPOS) lists into DIR, one directory per name, at the
# pinned versions: a Go module from the module proxy (gomod), an npm
# package by `npm pack` (npm), a Debian Python package's directory
# (deb) or the Python standard library's (pystd), the installed copy
# when it is the pinned version, else the pinned .deb. A directory that
# is there already is left as it is. Each data set's fetch.sh calls it
# with its own repos.tsv. Needs go, npm and, for Debian packages not
# installed at the pinned version, apt-get and dpkg-deb.
set -eu
repos=$1
dir=$2
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tail -n +2 "$repos" | while IFS='	' read -r name lang kind source version sub split; do
	[ -d "$dir/$name" ] && continue
	case $kind in
	gomod)
		src=$(go mod download -json "$source@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
		cp -R "$src" "$dir/$name"
		chmod -R u+w "$dir/$name" ;;
	npm)
		# Most tarballs unpack into package/; some (ejs 3.x) into
		# another single directory.
		(cd "$tmp" && npm pack --silent "$source@$version" >/dev/null && mkdir "$name" && tar xzf ./*.tgz -C "$name" && rm ./*.tgz)
		set -- "$tmp/$name"/*
		if [ $# -ne 1 ] || [ ! -d "$1" ]; then
			echo "fetch.sh: $name: the tarball of $source@$version holds more than one top directory" >&2; exit 1
		fi
		mv "$1" "$dir/$name" ;;
	deb|pystd)
		# A Debian package: the installed copy when it is the pinned
		# version, else the pinned .deb.
		if [ "$kind" = deb ]; then from=/usr/lib/python3/dist-packages; else from=/usr/lib/python3.11; fi
		have=$(dpkg-query -W -f '${Version}' "$source" 2>/dev/null || true)
		if [ "$have" != "$version" ]; then
			(cd "$tmp" && apt-get download "$source=$version" >/dev/null && dpkg-deb -x ./*.deb "x$name" && rm ./*.deb)
			from=$tmp/x$name$from
		fi
		mkdir -p "$dir/$name"
		cp -R "$from/$sub" "$dir/$name/$sub"
		find "$dir/$name" -name __pycache__ -type d -prune -exec rm -rf {} + ;;
	*)
		echo "fetch.sh: $name: unknown kind $kind" >&2; exit 1 ;;
	esac
done
