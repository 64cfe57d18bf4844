// The processes of a service on this machine, found by the port they listen on (several with EDGE_WORKERS
// sharing one port), and their CPU and memory: what a loopback load test reports beside its own figures.
import { execFileSync } from 'node:child_process'
import { processCpuMs, processRssMb, processSystemCpuMs } from './cpu-meter.ts'

/** The pids listening on a TCP port of this machine (ss from iproute2). */
export const listeningPids = (port: number): number[] =>
  [...execFileSync('ss', ['-ltnpH', `( sport = :${port} )`], { encoding: 'utf8' }).matchAll(/pid=(\d+)/g)].map((match) => Number(match[1]))

/** The processes' resident memory together, in MB. */
export const totalRssMb = (pids: number[]): number => Math.round(pids.reduce((sum, pid) => sum + processRssMb(pid), 0))

/** The processes' CPU milliseconds together. */
export const totalCpuMs = (pids: number[]): number => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0)

/** The processes' CPU milliseconds in the kernel together. */
export const totalSystemCpuMs = (pids: number[]): number => pids.reduce((sum, pid) => sum + processSystemCpuMs(pid), 0)
