#!/usr/bin/env bash
# The cluster's test hosts: one network namespace per part, each with one veth joined to a bridge that
# lives in a namespace of its own (vgc-sw), so nothing touches the machine's own network.
#   network.sh up     builds them (after removing leftovers of an earlier run)
#   network.sh down   stops every process left in them and removes them; safe to run at any time
set -euo pipefail

PREFIX=vgc
SUBNET=10.213.0
# host -> last byte of its address
declare -A HOSTS=(
  [ctl]=2 [nats1]=11 [nats2]=12 [nats3]=13 [redis1]=21 [redis2]=22 [sent1]=31 [sent2]=32 [sent3]=33
  [chain]=40 [edge1]=51 [edge2]=52 [ingest]=61 [relay1]=71 [relay2]=72 [lb]=80
)
# the load's client addresses on the control host (each a client of its own for the per-IP budgets)
CLIENT_ADDRESSES=$(seq 100 139)

down() {
  local ns
  for ns in $(ip netns list | awk '{print $1}' | grep "^${PREFIX}-" || true); do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
  done
  for ns in $(ip netns list | awk '{print $1}' | grep "^${PREFIX}-" || true); do
    ip netns del "$ns" 2>/dev/null || true
  done
  # a veth pair that an interrupted `up` made but had not yet moved into its hosts stays in this namespace
  local link
  for link in $(ip -o link show | awk -F': ' '{print $2}' | cut -d@ -f1 | grep "^${PREFIX}-" || true); do
    ip link del "$link" 2>/dev/null || true
  done
}

up() {
  down
  ip netns add "${PREFIX}-sw"
  ip -n "${PREFIX}-sw" link add "${PREFIX}-br0" type bridge
  ip -n "${PREFIX}-sw" link set "${PREFIX}-br0" up
  local host ns
  for host in "${!HOSTS[@]}"; do
    ns="${PREFIX}-${host}"
    ip netns add "$ns"
    ip link add "${PREFIX}-${host}-s" type veth peer name "${PREFIX}-${host}-h"
    ip link set "${PREFIX}-${host}-s" netns "${PREFIX}-sw"
    ip link set "${PREFIX}-${host}-h" netns "$ns"
    ip -n "$ns" link set "${PREFIX}-${host}-h" name eth0
    ip -n "$ns" addr add "${SUBNET}.${HOSTS[$host]}/24" dev eth0
    ip -n "$ns" link set lo up
    ip -n "$ns" link set eth0 up
    ip -n "${PREFIX}-sw" link set "${PREFIX}-${host}-s" master "${PREFIX}-br0" up
  done
  local byte
  for byte in $CLIENT_ADDRESSES; do ip -n "${PREFIX}-ctl" addr add "${SUBNET}.${byte}/24" dev eth0; done
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  *)
    echo "usage: $0 up|down" >&2
    exit 2
    ;;
esac
