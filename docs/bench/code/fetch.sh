#!/bin/sh
# fetch.sh DIR: fetches the repositories of the code-search benchmark
# (docs/bench/code) into DIR, one directory per repository, named as in
# repos.tsv. Nothing fetched is committed. Needs go, npm, apt-get and
# dpkg-deb; every version is pinned, so the qrels' line ranges hold.
#
#   sh docs/bench/code/fetch.sh /tmp/fileinfo-bench-code
#   fileinfo bench code docs/bench/code --repos /tmp/fileinfo-bench-code
set -eu
dir=${1:-/tmp/fileinfo-bench-code}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gomod() { # name module version
	[ -d "$dir/$1" ] && return
	src=$(go mod download -json "$2@$3" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	cp -R "$src" "$dir/$1"
	chmod -R u+w "$dir/$1"
}
npmpkg() { # name package version
	[ -d "$dir/$1" ] && return
	(cd "$tmp" && npm pack --silent "$2@$3" >/dev/null && mkdir "$1" && tar xzf ./*.tgz -C "$1" && rm ./*.tgz)
	mv "$tmp/$1/package" "$dir/$1"
}
debpkg() { # name package version pythonpackage
	[ -d "$dir/$1" ] && return
	(cd "$tmp" && apt-get download "$2=$3" >/dev/null && dpkg-deb -x ./"$2"_*.deb "x$1" && rm ./*.deb)
	mkdir -p "$dir/$1"
	cp -R "$tmp/x$1/usr/lib/python3/dist-packages/$4" "$dir/$1/$4"
}

gomod cobra github.com/spf13/cobra v1.9.1
gomod chi github.com/go-chi/chi/v5 v5.2.1
gomod errgroup golang.org/x/sync v0.12.0
npmpkg express express 4.21.2
npmpkg commander commander 12.1.0
debpkg flask python3-flask 2.2.2-3 flask
debpkg click python3-click 8.1.3-2 click
debpkg requests python3-requests 2.28.1+dfsg-1 requests

# More of the tuning split, written the same way on 2026-12-07.
gomod fiber github.com/gofiber/fiber/v2 v2.52.5
gomod sqlx github.com/jmoiron/sqlx v1.4.0
gomod resty github.com/go-resty/resty/v2 v2.15.3
gomod cron github.com/robfig/cron/v3 v3.0.1
gomod pflag github.com/spf13/pflag v1.0.6
debpkg paramiko python3-paramiko 2.12.0-2 paramiko
debpkg jsonschema python3-jsonschema 4.10.3-1 jsonschema
debpkg tqdm python3-tqdm 4.64.1-1 tqdm
debpkg werkzeug python3-werkzeug 2.2.2-3+deb12u1 werkzeug
npmpkg joi joi 17.13.3
npmpkg moment moment 2.30.1
npmpkg socketio socket.io 4.8.1
npmpkg yargs yargs 17.7.2
npmpkg semver semver 7.6.3
npmpkg mobx mobx 6.13.5
npmpkg trpc @trpc/server 10.45.2

# The held-out split (repos.tsv): written by other hands than the
# ranking's, never tuned on.
gomod gin github.com/gin-gonic/gin v1.10.0
gomod echo github.com/labstack/echo/v4 v4.12.0
gomod viper github.com/spf13/viper v1.19.0
gomod zap go.uber.org/zap v1.27.0
debpkg markdown python3-markdown 3.4.1-2+deb12u1 markdown
debpkg yaml python3-yaml 6.0-3+b2 yaml
debpkg attrs python3-attr 22.2.0-1 attr
debpkg dateutil python3-dateutil 2.8.2-2 dateutil
debpkg rich python3-rich 13.3.1-1 rich
debpkg httpx python3-httpx 0.23.3-1 httpx
npmpkg axios axios 1.7.9
npmpkg koa koa 2.15.3
npmpkg ws ws 8.18.0
npmpkg nodemailer nodemailer 6.9.16
npmpkg rxjs rxjs 7.8.1
npmpkg immer immer 10.1.1
