import { pino, type Logger } from 'pino'

export type { Logger }

/** Paths redacted wherever they appear in a log record: keys and full signatures never reach a log. */
const REDACTED_PATHS = [
  'privateKey',
  '*.privateKey',
  'relayerPrivateKey',
  '*.relayerPrivateKey',
  'signature',
  '*.signature',
  '*.*.signature',
  'req.headers.authorization',
]

/** The process's root logger; modules take child loggers from it. */
export function createRootLogger(options: { level: string; name?: string }): Logger {
  return pino({
    name: options.name ?? 'venue-gateway',
    level: options.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  })
}
