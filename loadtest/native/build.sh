#!/bin/sh
# Builds the native stream load client with the system C compiler: build.sh [OUTPUT]
# (default: loadtest/native/build/stream-client). Needs cc (gcc or clang) and Linux (epoll).
set -eu
usage() {
  cat <<'EOF'
usage: npm run build:load-client -- [OUTPUT]

Builds the native stream load client (loadtest/native/stream-client.c) with the system C compiler ($CC, else cc)
into OUTPUT (default loadtest/native/build/stream-client) and prints its path. Needs Linux (epoll).

options:
  -h, --help  print this help and exit
EOF
}
# the command-line rules of every command (kit/command-line.ts): the usage and one line on stderr, exit 2
refuse() {
  usage >&2
  printf '\nerror: %s\n' "$1" >&2
  exit 2
}
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  -*) refuse "unknown option '$1'" ;;
esac
[ $# -le 1 ] || refuse "too many arguments: \"$2\""
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/build/stream-client"}
mkdir -p "$(dirname "$out")"
${CC:-cc} -O2 -Wall -Wextra -Werror -o "$out" "$here/stream-client.c"
echo "$out"
