#!/usr/bin/env bash
# npm run test:cluster [-- --schedule full|ci|nats] [--budget SECONDS] [OUT_DIR]: builds the cluster's hosts,
# runs the fault schedule inside the control host within the time budget, and removes every host (and whatever
# still runs in one) afterwards, also when the run fails, times out or is interrupted.
# Writes result.json, timeline.html and each part's log into OUT_DIR (default ./cluster-run); prints
# "N passed, N failed" last, "0 passed, 1 failed" when the run could not count (not root, timed out, crashed).
set -uo pipefail
cd "$(dirname "$0")/../.."
schedule=full
budget=900
out=$PWD/cluster-run
while [ $# -gt 0 ]; do
  case "$1" in
    --schedule) schedule=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    *) out=$1; shift ;;
  esac
done
if [ "$(id -u)" -ne 0 ]; then
  echo "cluster run skipped: it builds network namespaces and needs root"
  echo "0 passed, 1 failed"
  exit 1
fi
trap 'bash test/cluster/network.sh down' EXIT
trap 'exit 130' INT TERM
rm -rf "$out" && mkdir -p "$out"
bash test/cluster/network.sh up || { echo "0 passed, 1 failed"; exit 1; }
echo "cluster run: schedule $schedule, budget $budget s"
# the run's own deadline: a part that hangs ends the run instead of the CI job
timeout --kill-after=10 "$budget" ip netns exec vgc-ctl node --import tsx test/cluster/run.ts --schedule "$schedule" "$out" 2>&1 |
  tee "$out/console.log"
status=${PIPESTATUS[0]}
[ "$status" -ne 124 ] && [ "$status" -ne 137 ] || echo "cluster run: over its budget of $budget s"
# a run that died before its count still reports one
tail -n 1 "$out/console.log" | grep -qE '^[0-9]+ passed, [0-9]+ failed$' || echo "0 passed, 1 failed"
exit "$status"
