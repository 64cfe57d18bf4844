import { z } from 'zod'
import { envBool, envHost, envInt, envList, envPort, parseEnv, type Env } from '../kit/env-parsing.ts'

export const ROLES = ['ingestor', 'edge', 'relayer'] as const
export type Role = (typeof ROLES)[number]

const ProcessEnv = z.object({
  /** which roles this process runs; every role by default (the laptop mode) */
  ROLES: envList([...ROLES]).pipe(z.array(z.enum(ROLES)).min(1)),
  /** NATS servers (comma-separated); the in-process bus when unset */
  NATS_URL: z.string().optional(),
  /** prefixes subjects and buckets, so several environments can share one NATS */
  BUS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/)
    .default(''),
  /** Redis for shared rate-limit budgets and the job queue; in-memory when unset */
  REDIS_URL: z.string().optional(),
  /** false: no onboarding (no /v1/onboard, no chains started), e.g. an edge that serves market data only */
  ONBOARDING_ENABLED: envBool(true),
  /**
   * /metrics, /healthz and /readyz of every process, whatever its roles (the public PORT answers them 404
   * unless OPS_ROUTES_ON_PUBLIC_PORT); edge worker n (EDGE_WORKERS) listens on OPS_PORT + n; 0 picks free ports
   */
  OPS_PORT: envPort(9090),
  /** the address the ops listener (and the edge, see its config) listens on */
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
  if (config.OPS_PORT !== 0 && config.OPS_PORT + config.EDGE_WORKERS - 1 > 65_535) {
    throw new Error('OPS_PORT + EDGE_WORKERS - 1 is above 65535: edge worker n listens for /metrics on OPS_PORT + n')
  }
  return config
}
