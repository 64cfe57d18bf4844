// Starts each part of the cluster in its host, with the configuration the deploy/ manifests describe.
import { compiledEntry, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { address, runInHost, type Host, type HostProcess } from './hosts.ts'
import { nodeArgumentsFor } from '../support/node-script.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/**
 * How long a part has to say it is up: a hang detector. The whole start-up (every part's wait in turn) took up to
 * 60.4 s beside the suite (2026-12-02), 3.3 times that is 200 s; on a heavier machine (load average 20-40) it
 * took 244 s, with no part past the 120 s this was then (each part's own time was not recorded).
 */
const START_MS = 200_000
/** the slow link's delay each way (the chain host's link, see chain-host.ts) */
export const SLOW_LINK_MS = 250

export const NATS_HOSTS = ['nats1', 'nats2', 'nats3'] as const
export const NATS_URL = NATS_HOSTS.map((host) => `nats://${address[host]}:4222`).join(',')
export const SENTINELS = (['sent1', 'sent2', 'sent3'] as const).map((host) => `${address[host]}:26379`).join(',')
export const SENTINEL_NAME = 'mymaster'
export const EDGE_PORT = 8080
export const OPS_PORT = 9090
export const LB_URL = `http://${address.lb}:${EDGE_PORT}`
export const LB_STATS_URL = `http://${address.lb}:8404/stats;csv`

export function natsNode(host: (typeof NATS_HOSTS)[number], dir: string): HostProcess {
  const routes = NATS_HOSTS.filter((other) => other !== host).map((other) => `nats://${address[other]}:6222`)
  const file = join(dir, `${host}.conf`)
  mkdirSync(join(dir, `${host}-js`), { recursive: true })
  writeFileSync(
    file,
    [
      `server_name: ${host}`,
      `listen: ${address[host]}:4222`,
      `http: ${address[host]}:8222`,
      `jetstream { store_dir: "${join(dir, `${host}-js`)}", max_memory_store: 64MB, max_file_store: 256MB }`,
      `cluster { name: vgc, listen: ${address[host]}:6222, routes: [${routes.join(', ')}] }`,
    ].join('\n'),
  )
  return runInHost(host, host, 'nats-server', ['-c', file], { logDir: dir })
}

export function redisNode(host: 'redis1' | 'redis2', dir: string, replicaOf?: Host): HostProcess {
  const args = ['--bind', address[host], '--port', '6379', '--protected-mode', 'no', '--save', '']
  // as deploy/k8s/redis.yaml: every acknowledged write on the primary's disk; BullMQ needs noeviction
  args.push('--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction')
  mkdirSync(join(dir, host), { recursive: true })
  args.push('--dir', join(dir, host))
  if (replicaOf) args.push('--replicaof', address[replicaOf], '6379')
  return runInHost(host, host, 'redis-server', args, { logDir: dir })
}

export function sentinel(host: 'sent1' | 'sent2' | 'sent3', dir: string): HostProcess {
  const file = join(dir, `${host}.conf`)
  writeFileSync(
    file,
    [
      `bind ${address[host]}`,
      'port 26379',
      'protected-mode no',
      `dir ${dir}`,
      `sentinel monitor ${SENTINEL_NAME} ${address.redis1} 6379 2`,
      `sentinel down-after-milliseconds ${SENTINEL_NAME} 3000`,
      `sentinel failover-timeout ${SENTINEL_NAME} 10000`,
      `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
    ].join('\n') + '\n',
  )
  return runInHost(host, host, 'redis-sentinel', [file], { logDir: dir })
}

export async function chainHost(dir: string): Promise<{ process: HostProcess; deploymentFile: string }> {
  const deploymentFile = join(dir, 'deployment.json')
  const process_ = runInHost(
    'chain',
    'chain',
    process.execPath,
    [...nodeArgumentsFor(join(ROOT, 'test/cluster/chain-host.ts')), address.chain, deploymentFile, String(SLOW_LINK_MS)],
    {
      logDir: dir,
      cwd: ROOT,
    },
  )
  await process_.waitForOutput('chain ready', START_MS)
  return { process: process_, deploymentFile }
}

/** What every service process shares: the NATS cluster, Redis through the Sentinels, the chain. */
export function serviceEnv(deploymentFile: string, allowlist: string[]): Record<string, string> {
  return {
    NATS_URL,
    // the bucket and, following it by default, the tick stream at three copies, as a production cluster keeps them
    NATS_KV_REPLICAS: '3',
    REDIS_SENTINELS: SENTINELS,
    REDIS_SENTINEL_NAME: SENTINEL_NAME,
    DEPLOYMENT_FILE: deploymentFile,
    // the load reads prices, the stream and onboards; no portfolio read reaches an indexed source
    ...UNUSED_INDEXED_SOURCE,
    ONBOARD_ALLOWLIST: allowlist.join(','),
    ONBOARD_DEADLINE_MS: '4000',
    STALE_AFTER_MS: '3000',
    SIM_TICKS_PER_SECOND: '40',
    RELAYER_POLLING_INTERVAL_MS: '100',
    TRUSTED_PROXIES: address.lb,
    LOG_LEVEL: 'info',
  }
}

/** A service process of the compiled build, as the image runs it. */
export function serviceProcess(host: Host, roles: string[], env: Record<string, string>, dir: string): HostProcess {
  const entry = compiledEntry()
  return runInHost(host, host, process.execPath, [...entry.args, ...roles], {
    logDir: dir,
    cwd: entry.cwd,
    env: { ...env, HOST: address[host], PORT: String(EDGE_PORT), OPS_PORT: String(OPS_PORT) },
  })
}

/** HAProxy in front of the edges: least connections, each edge's /readyz checked every 500 ms on `healthPort`. */
export function loadBalancer(dir: string, healthPort: number): HostProcess {
  const file = join(dir, 'haproxy.cfg')
  writeFileSync(
    file,
    `global
  maxconn 4096
defaults
  mode http
  option forwardfor
  option redispatch
  retries 2
  timeout connect 2s
  timeout client 65s
  timeout server 65s
  timeout tunnel 1h
  timeout client-fin 5s
  timeout check 2s
frontend stream_and_rest
  bind ${address.lb}:${EDGE_PORT}
  default_backend edges
frontend stats
  bind ${address.lb}:8404
  stats enable
  stats uri /stats
backend edges
  balance leastconn
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr host edge
  http-check expect status 200
  default-server check port ${healthPort} inter 500 fall 2 rise 2
  server edge1 ${address.edge1}:${EDGE_PORT}
  server edge2 ${address.edge2}:${EDGE_PORT}
`,
  )
  return runInHost('lb', 'haproxy', 'haproxy', ['-db', '-f', file], { logDir: dir })
}

export { START_MS }
