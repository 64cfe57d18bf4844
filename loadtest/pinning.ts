import { spawnSync } from 'node:child_process'

const hasTaskset = !spawnSync('taskset', ['--version']).error

/** `command` run on the given CPUs (taskset -c), or as it is without taskset or CPUs. */
export const pinned = (cpus: string | undefined, command: string[]) =>
  hasTaskset && cpus !== undefined ? ['taskset', '-c', cpus, ...command] : command
