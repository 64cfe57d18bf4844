#!/usr/bin/env bash
# `npm run lint:code` for CI, run once per tree: ESLint's type-aware rules read every file's types, so no
# per-file cache is sound, and a whole run costs about 70 CPU-seconds. A run that passes records its key (the
# content of every file ESLint could read: each tracked file's git blob, the content of each file changed since or
# not tracked and not ignored, and the Node version; the lockfile is a tracked file) beside the cached installs; a
# later run of exactly that tree, in any clone, says so and skips. Any change anywhere makes a new key.
set -uo pipefail
cd "$(dirname "$0")/.."
content_of_changed_files() {
  git ls-files -z --modified --others --exclude-standard | while IFS= read -r -d '' file; do
    if [ -e "$file" ]; then echo "$file $(git hash-object -- "$file")"; else echo "$file deleted"; fi
  done
}
key=$( (git ls-files -s; content_of_changed_files; node --version) | sha256sum | cut -c1-16)
passed=${XDG_CACHE_HOME:-$HOME/.cache}/venue-ci/eslint-passed/$key
if [ -e "$passed" ]; then
  echo "eslint: this tree ($key) passed on $(cat "$passed"); not linted again"
  exit 0
fi
npm run lint:code || exit 1
mkdir -p "$(dirname "$passed")" && date -u +%FT%TZ >"$passed"
