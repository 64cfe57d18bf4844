import { randomUUID } from 'node:crypto'
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import type { Test } from 'tap'
import { spawnTiedToParent } from '../../deploy/devnet/child-process.ts'
import { fileURLToPath } from 'node:url'
import { execFileSync } from 'node:child_process'
import { isBuildCurrent } from '../../scripts/build.ts'
import type { IndexerStandin } from '../../standins/subgraph/index.ts'
import { freePort } from './servers.ts'
import { START_DEADLINE_MS, waitFor, withDeadline } from './wait.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** How a test starts the service: what production runs, or what `npm start` runs. */
export interface ServiceEntry {
  args: string[]
  cwd: string
}

/**
 * The compiled build, run by plain node as the image runs it: `node dist/services/main.js [roles]`. The test
 * run (test/run.ts) makes dist/ current before the files start; a file run alone builds it here when it is not.
 */
export function compiledEntry(): ServiceEntry {
  if (!isBuildCurrent())
    execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'build.ts')], { cwd: ROOT, stdio: 'inherit' })
  return { args: [join(ROOT, 'dist', 'services', 'main.js')], cwd: ROOT }
}

/**
 * What `npm start` runs (`node scripts/start.mjs [roles]`): the embedded default, which starts the
 * GraphQL stand-in and development chains for what is not configured. For the few tests of that default.
 */
export const NPM_START_ENTRY: ServiceEntry = { args: [join(ROOT, 'scripts', 'start.mjs')], cwd: ROOT }

/**
 * For a service whose test never reads portfolios: the production entry needs an indexed source configured,
 * and nothing asks this one (no request reaches the address).
 */
export const UNUSED_INDEXED_SOURCE = {
  INDEXER_URL_42161: 'http://127.0.0.1:9/unused-42161',
  INDEXER_URL_421614: 'http://127.0.0.1:9/unused-421614',
}

/**
 * An edge on NATS in a bus namespace of its own (`namespace`, or a fresh one), for market data only: no
 * indexed source, no onboarding, and a fan-out slice wide enough that a cold process does not conflate its
 * first burst (conflation has tests of its own).
 */
export const edgeOnNats = (natsUrl: string, namespace = `e2e${randomUUID().slice(0, 8)}`) => ({
  ...UNUSED_INDEXED_SOURCE,
  NATS_URL: natsUrl,
  BUS_NAMESPACE: namespace,
  HOST: '127.0.0.1',
  ONBOARDING_ENABLED: 'false',
  STREAM_FANOUT_SLICE_MS: '60000',
})

/**
 * Onboarding on chain 42161 at a node of the test's (its bundler at the same address), with the venue's
 * contracts at placeholder addresses: for a test of what onboarding does while that node answers nothing.
 */
export const chainAt = (nodeUrl: string) => ({
  CHAIN_42161_RPC_URL: nodeUrl,
  CHAIN_42161_BUNDLER_URL: nodeUrl,
  CHAIN_42161_TRADING: '0x1000000000000000000000000000000000000001',
  CHAIN_42161_TRADING_STORAGE: '0x1000000000000000000000000000000000000002',
  CHAIN_42161_USDC: '0x1000000000000000000000000000000000000003',
  CHAIN_42161_WRAPPER: '0x1000000000000000000000000000000000000004',
})

/** The production entry's indexed source on both chains: the GraphQL stand-in a test started. */
export const indexedSourceAt = (standin: IndexerStandin) => ({
  INDEXER_URL_42161: standin.url(42161),
  INDEXER_URL_421614: standin.url(421614),
})

export interface ServiceProcess {
  child: ChildProcess
  /** every log line so far */
  logs: string[]
  /** resolves with the first log record whose msg matches */
  waitForLog(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>
  /** the exit code once it has exited (null when killed by a signal) */
  exited: Promise<number | null>
  /** SIGTERM, and the exit code once it has exited */
  stop(): Promise<number | null>
}

/**
 * A starter of service processes on settings they share (each call adds its own on top); every process it
 * started is stopped when the test ends.
 */
export function serviceProcessStarter(
  t: Test,
  shared: Record<string, string>,
): (roles: string[], env?: Record<string, string>) => ServiceProcess {
  const started: ServiceProcess[] = []
  t.teardown(() => Promise.all(started.map((service) => service.stop())))
  return (roles, env = {}) => {
    const service = startServiceProcess(roles, { ...shared, ...env })
    started.push(service)
    return service
  }
}

/**
 * The ingestor and the edge in one process on the simulated feed, without onboarding or an indexed source, on
 * a free port; resolves once it serves prices. Stopped when the test ends.
 */
export async function startMarketDataService(
  t: Test,
  env: Record<string, string> = {},
): Promise<{ service: ServiceProcess; port: number; base: string }> {
  const port = await freePort()
  const service = startServiceProcess(['ingestor', 'edge'], {
    ...UNUSED_INDEXED_SOURCE,
    PORT: String(port),
    HOST: '127.0.0.1',
    ONBOARDING_ENABLED: 'false',
    ...env,
  })
  t.teardown(() => service.stop())
  const base = `http://127.0.0.1:${port}`
  await service.waitForLog('edge listening', START_DEADLINE_MS)
  await waitFor(async () => (await fetch(`${base}/v1/prices`)).status === 200, { timeoutMs: START_DEADLINE_MS, what: 'the first snapshot' })
  return { service, port, base }
}

/** Runs the service's roles with the given environment: the compiled build unless another entry is given. */
export function startServiceProcess(
  roles: string[],
  env: Record<string, string>,
  /** another launcher, e.g. taskset pinning the process to one CPU in a bench */
  launcher: { command: string; args: string[] } = { command: process.execPath, args: [] },
  /** another entry: `npm start`'s (NPM_START_ENTRY), or a build in another directory */
  entry: ServiceEntry = compiledEntry(),
): ServiceProcess {
  const child = spawnTiedToParent(launcher.command, [...launcher.args, ...entry.args, ...roles], {
    cwd: entry.cwd,
    // the ops listener on a free port unless the test names one (OPS_PORT's default is shared by every process)
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OPS_PORT: '0', ...env },
  })
  const logs: string[] = []
  const waiters: Array<{ msg: string; resolve: (record: Record<string, unknown>) => void }> = []
  let buffered = ''
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString()
    const lines = buffered.split('\n')
    buffered = lines.pop()!
    for (const line of lines) {
      logs.push(line)
      let record: Record<string, unknown>
      try {
        record = JSON.parse(line)
      } catch {
        continue
      }
      for (const waiter of waiters.filter((waiter) => record.msg === waiter.msg)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(record)
      }
    }
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))

  return {
    child,
    logs,
    exited,
    waitForLog(msg, timeoutMs = START_DEADLINE_MS) {
      const seen = logs
        .map((line) => {
          try {
            return JSON.parse(line)
          } catch {
            return undefined
          }
        })
        .find((record) => record?.msg === msg)
      if (seen) return Promise.resolve(seen)
      const found = new Promise<Record<string, unknown>>((resolve) => waiters.push({ msg, resolve }))
      const failed = exited.then((code) => {
        throw new Error(`process exited (${code}) before "${msg}":\n${logs.join('\n')}`)
      })
      return withDeadline(Promise.race([found, failed]), timeoutMs, `log "${msg}"`)
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      return withDeadline(exited, 20_000, 'process exit')
    },
  }
}
