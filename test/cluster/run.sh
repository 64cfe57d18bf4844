#!/usr/bin/env bash
# npm run test:cluster [-- --schedule full|ci|nats] [--budget SECONDS] [OUT_DIR]: builds the cluster's hosts,
# runs the fault schedule inside the control host within the time budget, and removes every host (and whatever
# still runs in one) afterwards, also when the run fails, times out or is interrupted.
# Writes result.json, timeline.html and each part's log into OUT_DIR (default ./cluster-run); prints
# "N passed, N failed" last, "0 passed, 1 failed" when the run could not count (not root, timed out, crashed).
set -uo pipefail
cd "$(dirname "$0")/../.."
usage() {
  cat <<'EOF'
usage: npm run test:cluster -- [options] [OUT_DIR]

Builds the cluster's hosts (network namespaces: needs root), runs the fault schedule inside the control host
within the time budget, and removes every host afterwards. Writes result.json, timeline.html and each part's
log into OUT_DIR (default ./cluster-run); prints "N passed, N failed" last.

options:
  --schedule NAME     full, ci or nats: the faults to run (default full)
  --budget SECONDS    the run's deadline (default 900)
  -h, --help          print this help and exit
EOF
}
# the command-line rules every command follows (kit/command-line.ts): --help on stdout, exit 0; a refusal as
# the usage and one line on stderr, exit 2
refuse() {
  usage >&2
  printf '\nerror: %s\n' "$1" >&2
  exit 2
}
schedule=full
budget=900
out=
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --schedule | --budget)
      [ $# -ge 2 ] || refuse "option '$1 <value>' argument missing"
      if [ "$1" = --schedule ]; then schedule=$2; else budget=$2; fi
      shift 2 ;;
    -*) refuse "unknown option '$1'" ;;
    *) [ -z "$out" ] || refuse "too many arguments: \"$1\""; out=$1; shift ;;
  esac
done
# the schedules test/cluster/run.ts runs
case "$schedule" in full | ci | nats) ;; *) refuse "--schedule is full, ci or nats, not \"$schedule\"" ;; esac
case "$budget" in '' | *[!0-9]*) refuse "--budget takes a whole number of seconds, not \"$budget\"" ;; esac
out=${out:-$PWD/cluster-run}
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
