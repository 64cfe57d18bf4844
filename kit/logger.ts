import { pino, type DestinationStream, type Logger } from 'pino'
import { createRedactor } from './redaction.ts'

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

export interface RootLoggerOptions {
  level: string
  name?: string
  /**
   * Secret values from the configuration (keys in URLs, passwords, private keys). They are masked in every
   * line, whatever field or nested error message carries them, as are credentials in any URL.
   */
  secrets?: Iterable<string>
  /** where lines go; standard output by default */
  destination?: DestinationStream
}

/** The process's root logger; modules take child loggers from it. */
export function createRootLogger(options: RootLoggerOptions): Logger {
  const redactor = createRedactor(options.secrets)
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true })
  // masked as whole lines: library errors carry secrets in messages, causes and details at any depth
  const masked: DestinationStream = { write: (line) => destination.write(redactor.mask(line)) }
  return pino(
    {
      name: options.name ?? 'venue-gateway',
      level: options.level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    masked,
  )
}
