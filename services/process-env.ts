import { z } from 'zod'
import { ServiceError } from '../kit/errors.ts'
import { envBool, envInt, envList, envPort, parseEnv, type Env } from '../kit/env-parsing.ts'
import { HttpEnv } from './http/config.ts'
import { ROLES } from './ops/roles.ts'

// host:port, the host a name, an IPv4 address or a bracketed IPv6 address
const SENTINEL_ADDRESS = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/

// Each variable's description is its line in docs/configuration.md (npm run docs:config).
export const ProcessEnv = z.object({
  ROLES: envList([...ROLES])
    .pipe(z.array(z.enum(ROLES)).min(1))
    .describe('roles this process runs, also given as `npm start -- <role> ...`; every role by default (the laptop mode)'),
  NATS_URL: z.string().optional().describe('NATS servers, comma-separated; the in-process bus when unset'),
  NATS_KV_REPLICAS: envInt(1, { min: 1, max: 5 }).describe(
    'copies JetStream keeps of the latest-price bucket when it creates it: 3 on a three-node NATS cluster',
  ),
  NATS_TICK_STREAM_REPLICAS: envInt(0, { min: 0, max: 5 }).describe(
    'copies JetStream keeps of the tick stream (the resume window, and the stream edges deliver from) when it creates it; 0: as many as NATS_KV_REPLICAS. Every tick is replicated to each copy: see docs/stream.md, the loss contract',
  ),
  STREAM_RESUME_WINDOW_SECONDS: envInt(300, { min: 1, max: 86_400 }).describe(
    'how long ticks are kept for stream clients resuming from a cursor (`?from=`, `Last-Event-ID`): by the edge in memory, and with NATS by the tick stream (set when it is created); see docs/stream.md, the loss contract',
  ),
  BUS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/)
    .default('')
    .describe('prefix of every subject and bucket, so several environments can share one NATS'),
  REDIS_URL: z
    .string()
    .optional()
    .describe('Redis for shared rate-limit budgets, candles and the job queue; in memory when unset (and no `REDIS_SENTINELS`)'),
  REDIS_SENTINELS: envList()
    .refine((addresses) => addresses.every((address) => SENTINEL_ADDRESS.test(address)), 'must be host:port entries, comma-separated')
    .describe('Redis through Sentinel instead of `REDIS_URL`: the Sentinels as host:port, comma-separated'),
  REDIS_SENTINEL_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .default('mymaster')
    .describe('the name the Sentinels monitor the primary under (their `sentinel monitor <name> ...`)'),
  ONBOARDING_ENABLED: envBool(true).describe(
    '`false`: no onboarding (no `/v1/onboard`, no chains started), e.g. an edge that serves market data only',
  ),
  OPS_PORT: envPort(9090).describe(
    '`/metrics`, `/healthz` and `/readyz` of every process, whatever its roles (the public `PORT` answers them 404 unless `OPS_ROUTES_ON_PUBLIC_PORT`); edge worker n (`EDGE_WORKERS`) listens on `OPS_PORT + n`; 0 picks free ports',
  ),
  HOST: HttpEnv.shape.HOST,
  EDGE_WORKERS: envInt(1, { min: 1 }).describe(
    'edge processes sharing `PORT` (SO_REUSEPORT), one per core: this one and `EDGE_WORKERS - 1` edge-only copies; above 1 needs the edge role and `NATS_URL` (each worker subscribes to the ticks itself)',
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('OTLP/HTTP collector base URL; spans go to `<url>/v1/traces` as JSON, batched; tracing is off when unset'),
  OTEL_SERVICE_NAME: z.string().min(1).default('venue-gateway').describe('the `service.name` of the spans'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino log level'),
})

export type ProcessConfig = z.infer<typeof ProcessEnv>

export const processConfig = (env: Env): ProcessConfig => {
  const config = parseEnv(ProcessEnv, env, 'process')
  if (config.EDGE_WORKERS > 1 && (!config.NATS_URL || !config.ROLES.includes('edge'))) {
    throw new Error('EDGE_WORKERS above 1 needs the edge role and NATS_URL: each worker subscribes to the ticks on NATS')
  }
  if (config.OPS_PORT !== 0 && config.OPS_PORT + config.EDGE_WORKERS - 1 > 65_535) {
    throw new Error('OPS_PORT + EDGE_WORKERS - 1 is above 65535: edge worker n listens for /metrics on OPS_PORT + n')
  }
  if (config.REDIS_URL && config.REDIS_SENTINELS.length > 0) {
    throw new ServiceError(
      'config_invalid',
      'invalid configuration for process: REDIS_URL and REDIS_SENTINELS are both set; set one (the Sentinels name the primary)',
    )
  }
  return config
}

/** Where Redis is: one address, or the Sentinels that name the current primary; undefined without Redis. */
export type RedisTarget = { url: string } | { sentinels: Array<{ host: string; port: number }>; name: string }

export const redisTarget = (config: ProcessConfig): RedisTarget | undefined => {
  if (config.REDIS_URL) return { url: config.REDIS_URL }
  if (config.REDIS_SENTINELS.length === 0) return undefined
  const sentinels = config.REDIS_SENTINELS.map((address) => {
    const colon = address.lastIndexOf(':')
    return { host: address.slice(0, colon).replace(/^\[|\]$/g, ''), port: Number(address.slice(colon + 1)) }
  })
  return { sentinels, name: config.REDIS_SENTINEL_NAME }
}
