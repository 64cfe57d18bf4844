import { execFileSync } from 'node:child_process'

/** The processes holding sockets on `port` in `state` (listening or established), by pid, from ss. */
export function socketsByPid(port: number, state: 'listening' | 'established'): Map<number, number> {
  const lines = execFileSync('ss', ['-tnpH', 'state', state, `( sport = :${port} )`], { encoding: 'utf8' }).split('\n')
  const counts = new Map<number, number>()
  for (const line of lines) {
    const pid = /pid=(\d+)/.exec(line)?.[1]
    if (pid) counts.set(Number(pid), (counts.get(Number(pid)) ?? 0) + 1)
  }
  return counts
}
