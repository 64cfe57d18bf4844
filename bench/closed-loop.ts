// One closed-loop measurement of a server for the REST benches: the load test's wrk engine on CPU 1 while
// the server's CPU and both cores' busy share are read over the same window.
import { coreMeter, processMeter } from '../loadtest/cpu-meter.ts'
import { runClosedLoopRest } from '../loadtest/wrk-load.ts'

export interface ClosedLoopFigures {
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  errors: number
  /** the server's CPU share of one core over the window */
  serverCpu: number
  serverCpuUsPerRequest: number
  /** each core's busy share over the window */
  cores: number[]
}

export async function measureClosedLoop(options: {
  base: string
  /** 'GET /path' or 'POST /path' with `body` */
  route: string
  body?: string
  headers?: Record<string, string>
  connections: number
  seconds: number
  serverPid: number
}): Promise<ClosedLoopFigures> {
  let window = { serverCpu: 0, cores: [] as number[] }
  const result = await runClosedLoopRest({
    target: options.base,
    route: options.route,
    ...(options.body !== undefined && { body: options.body }),
    headers: options.headers ?? {},
    connections: options.connections,
    threads: 1,
    durationSeconds: options.seconds,
    cpus: '1',
    log: (line) => console.log(`  ${line}`),
    measured: () => {
      const [server, cores] = [processMeter(options.serverPid), coreMeter()]
      return () => (window = { serverCpu: server.stop(), cores: cores.stop() })
    },
  })
  const totals = result.totals as { requestsPerSecond: number; statusErrors: number }
  return {
    requestsPerSecond: totals.requestsPerSecond,
    p50Ms: result.latency.p50Ms,
    p99Ms: result.latency.p99Ms,
    errors: totals.statusErrors,
    serverCpu: window.serverCpu,
    serverCpuUsPerRequest: (window.serverCpu * 1e6) / totals.requestsPerSecond,
    cores: window.cores,
  }
}
