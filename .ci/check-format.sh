#!/usr/bin/env bash
# `npm run lint:format` for CI: prettier --check on the tracked files that no earlier run found formatted.
# Prettier's own cache keys its entries by absolute path, which a fresh clone in another folder never matches
# (a clone's first check costs about 18 CPU-seconds); this list is keyed by each file's git blob (its content),
# under a key of prettier's version and its configuration, and kept beside the cached installs.
set -uo pipefail
cd "$(dirname "$0")/.."
key=$(cat node_modules/prettier/package.json .prettierrc.json .prettierignore | sha256sum | cut -c1-16)
known=${XDG_CACHE_HOME:-$HOME/.cache}/venue-ci/formatted-$key
mkdir -p "$(dirname "$known")" && touch "$known"
blobs=$(git ls-files -s | awk '{ print $2 "\t" $4 }')
todo=$(grep -vxFf "$known" <<<"$blobs" | cut -f2)
echo "prettier --check: $(grep -c . <<<"$todo") of $(grep -c . <<<"$blobs") tracked files not found formatted before"
if [ -n "$todo" ]; then
  xargs -d '\n' npx prettier --check --ignore-unknown <<<"$todo" || exit 1
fi
# every tracked file is now known formatted, or ignored by prettier: either way not checked again
sort -u "$known" - <<<"$blobs" >"$known.partial" && mv "$known.partial" "$known"
