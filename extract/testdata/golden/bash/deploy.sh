#!/usr/bin/env bash
# deploy.sh: build, push and roll out a service.
# shellcheck disable=SC2155
set -euo pipefail

readonly SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$(dirname "${BASH_SOURCE[0]}")/lib/log.sh"
. ./lib/config.sh
source "${SCRIPT_DIR}/lib/retry.sh"
[[ -f "$HOME/.deployrc" ]] && source "$HOME/.deployrc"

# Prints usage and exits.
usage() {
  cat <<USAGE
Usage: $(basename "$0") [-n] SERVICE
  -n  dry run (default: $(default_mode))
USAGE
  exit 2
}

# shellcheck disable=SC2086
# Builds the image for $1 and echoes its tag.
function build_image {
  local service=$1
  local tag="$(git rev-parse --short HEAD)"
  docker build -t "registry.local/${service}:${tag}" "services/${service}" >&2
  echo "$tag"
}

function push_image() {
  local ref=$1
  retry 3 docker push "$ref" || die "push failed: $ref"
}

# Rolls out a tag, waiting until healthy.
rollout() {
  local service=$1 tag=$2
  kubectl set image "deploy/${service}" app="registry.local/${service}:${tag}"
  # wait_healthy is local to rollout
  wait_healthy() {
    local tries=0
    until curl -fsS "http://${service}.local/health" >/dev/null; do
      tries=$((tries + 1))
      (( tries > 30 )) && return 1
      sleep 2
    done
  }
  if ! wait_healthy; then
    log_error "rollout of ${service} failed"
    kubectl rollout undo "deploy/${service}"
    return 1
  fi
}

lib::notify() {
  local msg=$1
  curl -s -X POST -d "$(jq -n --arg m "$msg" '{text: $m}')" "$WEBHOOK" | tee -a deploy.log
}

main() {
  local dry_run=false
  while getopts ":n" opt; do
    case $opt in
      n) dry_run=true ;;
      *) usage ;;
    esac
  done
  shift $((OPTIND - 1))
  [[ $# -eq 1 ]] || usage

  local service=$1 tag
  tag=$(build_image "$service")
  if [[ $dry_run == true ]]; then
    log_info "dry run: would deploy ${service}:${tag}"
    return 0
  fi
  push_image "registry.local/${service}:${tag}"
  rollout "$service" "$tag" && lib::notify "deployed ${service}:${tag}"
  for f in build/*.tar; do
    [ -e "$f" ] || continue
    rm -f -- "$f"
  done
}

trap 'log_error "interrupted"; exit 130' INT
main "$@"
