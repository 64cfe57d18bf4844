import { spawnSync } from 'node:child_process'

const hasTaskset = !spawnSync('taskset', ['--version']).error

/** A CPU list as taskset -c takes it: 1, 0,1 or 0-3. */
export const isCpuList = (text: string) => /^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(text)

/** `command` run on the given CPUs (taskset -c), or as it is without taskset or CPUs. */
export const pinned = (cpus: string | undefined, command: string[]) =>
  hasTaskset && cpus !== undefined ? ['taskset', '-c', cpus, ...command] : command

/** Moves a running process, every thread of it, to the given CPUs (taskset -a -p -c); nothing without taskset. */
export function pinRunning(cpus: string, pid: number): void {
  if (hasTaskset) spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)])
}
