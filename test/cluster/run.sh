#!/usr/bin/env bash
# npm run test:cluster: builds the cluster's hosts, runs the fault schedule inside the control host, and
# removes every host (and whatever still runs in one) afterwards, also when the run fails or is interrupted.
# Writes result.json, timeline.html and each part's log into the folder given (default ./cluster-run).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-$PWD/cluster-run}
trap 'bash test/cluster/network.sh down' EXIT
trap 'exit 130' INT TERM
rm -rf "$out" && mkdir -p "$out"
bash test/cluster/network.sh up || { echo "0 passed, 1 failed"; exit 1; }
# the run's own deadline: a part that hangs ends the run instead of the CI job
timeout --kill-after=10 600 ip netns exec vgc-ctl node --import tsx test/cluster/run.ts "$out" 2>&1 | tee "$out/console.log"
status=${PIPESTATUS[0]}
# a run that died before its count still reports one
tail -n 1 "$out/console.log" | grep -qE '^[0-9]+ passed, [0-9]+ failed$' || echo "0 passed, 1 failed"
exit "$status"
