# The CPU-seconds (user + system) of this shell and everything it starts, detached processes included: a cgroup
# of its own (cgroup v1's cpuacct, or cgroup v2), where the machine lets one be made (root). Elsewhere bash's
# `times`, which counts only the processes that were waited for, and says so. Sourced by .ci/run:
#   cpu_seconds_start   (once, early)      cpu_seconds   ("612 CPU-seconds (user 540, system 72)")
cpu_group=""
cpu_seconds_start() {
  local v1=/sys/fs/cgroup/cpuacct v2=/sys/fs/cgroup
  [ -f "$v2/cgroup.controllers" ] || v2=/sys/fs/cgroup/unified
  for parent in "$v1" "$v2"; do
    [ -d "$parent" ] || continue
    local group="$parent/venue-ci-$$"
    if mkdir "$group" 2>/dev/null && echo $$ >"$group/cgroup.procs" 2>/dev/null; then
      cpu_group=$group
      return
    fi
    rmdir "$group" 2>/dev/null
  done
}
cpu_seconds() {
  local user system
  if [ -f "$cpu_group/cpuacct.stat" ]; then
    # in the kernel's clock ticks
    local hz
    hz=$(getconf CLK_TCK)
    user=$(awk -v hz="$hz" '$1 == "user" { printf "%d", $2 / hz }' "$cpu_group/cpuacct.stat")
    system=$(awk -v hz="$hz" '$1 == "system" { printf "%d", $2 / hz }' "$cpu_group/cpuacct.stat")
  elif [ -f "$cpu_group/cpu.stat" ]; then
    user=$(awk '$1 == "user_usec" { printf "%d", $2 / 1e6 }' "$cpu_group/cpu.stat")
    system=$(awk '$1 == "system_usec" { printf "%d", $2 / 1e6 }' "$cpu_group/cpu.stat")
  else
    # the children's line of `times` ("0m12.340s 0m1.250s"), written from this shell: in a pipeline it would be
    # a subshell's, which has no children
    local record
    record=$(mktemp)
    times >"$record"
    read -r user system < <(tail -n 1 "$record" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d %d", u[1] * 60 + u[2], s[1] * 60 + s[2] }')
    rm -f "$record"
    echo "$((user + system)) CPU-seconds (user $user, system $system; only the processes waited for: no cgroup could be made)"
    return
  fi
  echo "$((user + system)) CPU-seconds (user $user, system $system)"
  # the group goes once it is empty (a process the run left behind keeps it)
  echo $$ >"$(dirname "$cpu_group")/cgroup.procs" 2>/dev/null && rmdir "$cpu_group" 2>/dev/null
}
