#!/bin/sh
# Builds the native stream load client with the system C compiler: build.sh [OUTPUT]
# (default: loadtest/native/build/stream-client). Needs cc (gcc or clang) and Linux (epoll).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/build/stream-client"}
mkdir -p "$(dirname "$out")"
${CC:-cc} -O2 -Wall -Wextra -Werror -o "$out" "$here/stream-client.c"
echo "$out"
