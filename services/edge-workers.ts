import { spawn, type ChildProcess } from 'node:child_process'
import type { Env } from '../kit/env-parsing.ts'
import type { Logger } from '../kit/logger.ts'

export interface EdgeWorkers {
  stop(): Promise<void>
}

/**
 * Runs `count` more edge-only processes of this program on the same port: uWebSockets.js listens with
 * SO_REUSEPORT, so the kernel spreads new connections over every process listening. Each worker has its
 * own bus subscription and snapshot; `seq` and cursors are the deployment's, given on the bus. A worker
 * leaves when its primary does (the IPC channel closes) and is stopped with it.
 *
 * Worker n serves its /metrics, /healthz and /readyz on opsPort + n (free ports when opsPort is 0), not
 * on a port shared with the others: each process counts for itself, and a scrape spread by the kernel
 * over the workers would read a different process's counters each time.
 */
export function startEdgeWorkers(options: { count: number; port: number; opsPort: number; env: Env; logger: Logger }): EdgeWorkers {
  const log = options.logger.child({ module: 'edge-workers' })
  const workers: ChildProcess[] = []
  for (let index = 1; index <= options.count; index++) {
    const worker = spawn(process.execPath, [...process.execArgv, process.argv[1]!], {
      env: {
        ...options.env,
        ROLES: 'edge',
        EDGE_WORKERS: '1',
        EDGE_WORKER_INDEX: String(index),
        PORT: String(options.port),
        OPS_PORT: String(options.opsPort === 0 ? 0 : options.opsPort + index),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    worker.once('exit', (code, signal) => {
      if (!stopping) log.error({ worker: index, pid: worker.pid, code, signal }, 'edge worker exited')
    })
    workers.push(worker)
  }
  log.info({ workers: workers.map((worker) => worker.pid), port: options.port }, 'edge workers started')
  let stopping = false
  return {
    async stop() {
      stopping = true
      await Promise.all(
        workers.map((worker) => {
          if (worker.exitCode !== null || worker.signalCode !== null) return Promise.resolve()
          const exited = new Promise((resolve) => worker.once('exit', resolve))
          worker.kill('SIGTERM')
          return exited
        }),
      )
    },
  }
}
