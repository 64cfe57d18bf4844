#!/usr/bin/env bash
# `npm run lint:code` for CI, run once per tree: ESLint's type-aware rules read every file's types, so no
# per-file cache is sound, and a whole run costs about 70 CPU-seconds. A run that passes records its key (the
# content of every file ESLint and TypeScript read: the sources, configurations and manifests, each tracked one by
# its git blob, each one changed since or not tracked and not ignored by its content; the lockfile, which fixes
# the installed packages, is one of them; and the Node version) beside the cached installs. A later run of exactly
# that code, in any clone, says so and skips; a change to any of those files makes a new key.
set -uo pipefail
cd "$(dirname "$0")/.."
read_by_eslint=('*.ts' '*.mts' '*.cts' '*.tsx' '*.js' '*.mjs' '*.cjs' '*.json')
content_of_changed_files() {
  git ls-files -z --modified --others --exclude-standard -- "${read_by_eslint[@]}" | while IFS= read -r -d '' file; do
    if [ -e "$file" ]; then echo "$file $(git hash-object -- "$file")"; else echo "$file deleted"; fi
  done
}
key=$( (git ls-files -s -- "${read_by_eslint[@]}"; content_of_changed_files; node --version) | sha256sum | cut -c1-16)
passed=${XDG_CACHE_HOME:-$HOME/.cache}/venue-ci/eslint-passed/$key
if [ -e "$passed" ]; then
  echo "eslint: this tree ($key) passed on $(cat "$passed"); not linted again"
  exit 0
fi
npm run lint:code || exit 1
mkdir -p "$(dirname "$passed")" && date -u +%FT%TZ >"$passed"
echo "eslint: this tree ($key) passed; recorded"
