#!/usr/bin/env bash
# The install's footprint, as a fresh machine sees it: `npm ci` with an empty npm cache (time, node_modules size,
# package count), then the production install into another temp dir (`npm ci --omit=dev`: the image's
# node_modules) with its size, its closure (`npm ls --omit=dev`) and its largest packages.
# Usage: scripts/measure-install.sh [checkout]   (the checkout's package.json, package-lock.json and .npmrc)
# Figures taken while other work loads the machine or the network are not figures (see docs/install.md).
set -euo pipefail
src=$(cd "${1:-$(dirname "$0")/..}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

install() { # <dir> <npm ci args...>: prints the seconds taken
  local dir=$1; shift
  mkdir -p "$dir"
  cp "$src/package.json" "$src/package-lock.json" "$dir/"
  if [ -f "$src/.npmrc" ]; then cp "$src/.npmrc" "$dir/"; fi
  local cache start
  cache=$(mktemp -d -p "$work")
  start=$(date +%s.%N)
  (cd "$dir" && npm_config_cache=$cache npm ci --no-audit --no-fund "$@" >"$dir.log" 2>&1)
  echo "$(date +%s.%N) - $start" | bc
}

full_seconds=$(install "$work/full")
echo "npm ci, empty cache: ${full_seconds} s, node_modules $(du -sm "$work/full/node_modules" | cut -f1) MB"
prod_seconds=$(install "$work/prod" --omit=dev)
echo "npm ci --omit=dev, empty cache: ${prod_seconds} s, node_modules $(du -sm "$work/prod/node_modules" | cut -f1) MB"
echo "production closure (npm ls --omit=dev --all): $(cd "$work/prod" && npm ls --omit=dev --all --parseable 2>/dev/null | tail -n +2 | sort -u | wc -l) packages"
echo "largest in the production node_modules (MB):"
(cd "$work/prod/node_modules" && du -sm -- @*/* [!@]* 2>/dev/null | sort -rn | head -12)
