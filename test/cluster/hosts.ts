// The cluster's hosts (network namespaces built by network.sh) and the processes run in them.
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { join } from 'node:path'

export const SUBNET = '10.213.0'
export const address = {
  ctl: `${SUBNET}.2`,
  nats1: `${SUBNET}.11`,
  nats2: `${SUBNET}.12`,
  nats3: `${SUBNET}.13`,
  redis1: `${SUBNET}.21`,
  redis2: `${SUBNET}.22`,
  sent1: `${SUBNET}.31`,
  sent2: `${SUBNET}.32`,
  sent3: `${SUBNET}.33`,
  chain: `${SUBNET}.40`,
  edge1: `${SUBNET}.51`,
  edge2: `${SUBNET}.52`,
  ingest: `${SUBNET}.61`,
  relay1: `${SUBNET}.71`,
  relay2: `${SUBNET}.72`,
  lb: `${SUBNET}.80`,
} as const
export type Host = keyof typeof address

/** the load's own client addresses on the control host (network.sh adds them), one budget each */
export const CLIENT_ADDRESSES = Array.from({ length: 40 }, (_, index) => `${SUBNET}.${100 + index}`)

export const namespaceOf = (host: Host) => `vgc-${host}`

export interface HostProcess {
  host: Host
  name: string
  child: ChildProcess
  exited: Promise<number | null>
  /** resolves once a line of its output contains `text` */
  waitForOutput(text: string, timeoutMs: number): Promise<void>
}

/** Runs `command` inside `host`'s namespace, its output appended to `<logDir>/<name>.log`. */
export function runInHost(
  host: Host,
  name: string,
  command: string,
  args: string[],
  options: { logDir: string; env?: Record<string, string>; cwd?: string },
): HostProcess {
  const child = spawn('ip', ['netns', 'exec', namespaceOf(host), command, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log = createWriteStream(join(options.logDir, `${name}.log`), { flags: 'a' })
  let seen = ''
  const waiters: Array<{ text: string; resolve: () => void }> = []
  const onData = (chunk: Buffer) => {
    log.write(chunk)
    seen = (seen + chunk.toString()).slice(-64_000)
    for (const waiter of waiters.filter((entry) => seen.includes(entry.text))) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return {
    host,
    name,
    child,
    exited,
    waitForOutput(text, timeoutMs) {
      if (seen.includes(text)) return Promise.resolve()
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name}: no "${text}" within ${timeoutMs} ms (log ${name}.log)`)), timeoutMs)
        waiters.push({
          text,
          resolve: () => {
            clearTimeout(timer)
            resolve()
          },
        })
        void exited.then((code) => {
          clearTimeout(timer)
          reject(new Error(`${name} exited (${code}) before "${text}" (log ${name}.log${lastFatalLine(seen)})`))
        })
      })
    },
  }
}

/** Runs a short command inside `host`'s namespace and resolves once it has exited 0. */
export function execInHost(host: Host, command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('ip', ['netns', 'exec', namespaceOf(host), command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} in ${host}: ${output}`))))
  })
}

/** Cuts `host` off from every other host (its clients included) with nft, until `heal`. */
export const partition = (host: Host) =>
  execInHost(host, 'nft', [
    'add table inet vgc_partition; ' +
      'add chain inet vgc_partition input { type filter hook input priority 0; policy accept; }; ' +
      'add chain inet vgc_partition output { type filter hook output priority 0; policy accept; }; ' +
      `add rule inet vgc_partition input iifname "eth0" drop; ` +
      `add rule inet vgc_partition output oifname "eth0" drop`,
  ])

export const heal = (host: Host) => execInHost(host, 'nft', ['delete table inet vgc_partition'])

/** The message of the last fatal or error line of a service's JSON log, to name why it exited. */
function lastFatalLine(output: string): string {
  const line = output
    .split('\n')
    .reverse()
    .find((entry) => /"level":(50|60)/.test(entry))
  if (!line) return ''
  try {
    const record = JSON.parse(line) as { msg?: unknown; err?: { stack?: string } }
    // the stack's first frames name the request that failed (a bare "timeout" does not)
    const frames =
      record.err?.stack
        ?.split('\n')
        .slice(1, 4)
        .map((frame) => frame.trim()) ?? []
    return `: ${String(record.msg)}${frames.length > 0 ? ` (${frames.join(' < ')})` : ''}`
  } catch {
    return ''
  }
}
