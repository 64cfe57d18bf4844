import { z } from 'zod'
import { envBool, envHost, envInt, envList, envPort, parseEnv, type Env } from '../kit/env-parsing.ts'

export const ROLES = ['ingestor', 'edge', 'relayer'] as const
export type Role = (typeof ROLES)[number]

// Each variable's description is its line in docs/configuration.md (npm run docs:config).
export const ProcessEnv = z.object({
  ROLES: envList([...ROLES])
    .pipe(z.array(z.enum(ROLES)).min(1))
    .describe('roles this process runs, also given as `npm start -- <role> ...`; every role by default (the laptop mode)'),
  NATS_URL: z.string().optional().describe('NATS servers, comma-separated; the in-process bus when unset'),
  BUS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/)
    .default('')
    .describe('prefix of every subject and bucket, so several environments can share one NATS'),
  REDIS_URL: z.string().optional().describe('Redis for shared rate-limit budgets, candles and the job queue; in memory when unset'),
  ONBOARDING_ENABLED: envBool(true).describe(
    '`false`: no onboarding (no `/v1/onboard`, no chains started), e.g. an edge that serves market data only',
  ),
  OPS_PORT: envPort(9090).describe(
    '`/metrics`, `/healthz` and `/readyz` of every process, whatever its roles (the public `PORT` answers them 404 unless `OPS_ROUTES_ON_PUBLIC_PORT`); edge worker n (`EDGE_WORKERS`) listens on `OPS_PORT + n`; 0 picks free ports',
  ),
  HOST: envHost('0.0.0.0').describe(
    'the address the edge and the ops listener listen on: an IP address (0.0.0.0 and :: for every interface) or localhost',
  ),
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
  return config
}
