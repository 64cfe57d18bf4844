import { z } from 'zod'
import { ServiceError } from '../kit/errors.ts'
import { envBool, envHost, envInt, envList, envPort, parseEnv, type Env } from '../kit/env-parsing.ts'

// host:port, the host a name, an IPv4 address or a bracketed IPv6 address
const SENTINEL_ADDRESS = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/

export const ROLES = ['ingestor', 'edge', 'relayer'] as const
export type Role = (typeof ROLES)[number]

const ProcessEnv = z.object({
  /** which roles this process runs; every role by default (the laptop mode) */
  ROLES: envList([...ROLES]).pipe(z.array(z.enum(ROLES)).min(1)),
  /** NATS servers (comma-separated); the in-process bus when unset */
  NATS_URL: z.string().optional(),
  /** copies JetStream keeps of the latest-price bucket when it creates it: 3 on a three-node NATS cluster */
  NATS_KV_REPLICAS: envInt(1, { min: 1, max: 5 }),
  /** prefixes subjects and buckets, so several environments can share one NATS */
  BUS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/)
    .default(''),
  /** Redis for shared rate-limit budgets and the job queue; in-memory when unset (and no REDIS_SENTINELS) */
  REDIS_URL: z.string().optional(),
  /** Redis through Sentinel instead of REDIS_URL: the Sentinels as host:port, comma-separated */
  REDIS_SENTINELS: envList().refine(
    (addresses) => addresses.every((address) => SENTINEL_ADDRESS.test(address)),
    'must be host:port entries, comma-separated',
  ),
  /** the name the Sentinels monitor the primary under (their `sentinel monitor <name> ...`) */
  REDIS_SENTINEL_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .default('mymaster'),
  /** false: no onboarding (no /v1/onboard, no chains started), e.g. an edge that serves market data only */
  ONBOARDING_ENABLED: envBool(true),
  /** /metrics, /healthz and /readyz for a process that runs no edge (the edge serves them on PORT) */
  OPS_PORT: envPort(9090),
  /** the address the ops server (and the edge, see its config) listens on */
  HOST: envHost('0.0.0.0'),
  /**
   * edge processes sharing the edge's port (SO_REUSEPORT), one per core to use: this one and EDGE_WORKERS - 1
   * edge-only copies of it; more than one needs NATS (each subscribes to the ticks itself)
   */
  EDGE_WORKERS: envInt(1, { min: 1 }),
  /** OTLP/HTTP collector base URL (spans go to <url>/v1/traces); tracing is off when unset */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** the `service.name` of the spans */
  OTEL_SERVICE_NAME: z.string().min(1).default('venue-gateway'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})

export type ProcessConfig = z.infer<typeof ProcessEnv>

export const processConfig = (env: Env): ProcessConfig => {
  const config = parseEnv(ProcessEnv, env, 'process')
  if (config.EDGE_WORKERS > 1 && (!config.NATS_URL || !config.ROLES.includes('edge'))) {
    throw new Error('EDGE_WORKERS above 1 needs the edge role and NATS_URL: each worker subscribes to the ticks on NATS')
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
