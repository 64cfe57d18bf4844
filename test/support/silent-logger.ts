import { pino } from 'pino'
import type { Logger } from '../../kit/logger.ts'

/** A logger that writes nothing, for tests that do not read the log (those that do pass a destination). */
export const silentLogger = (): Logger => pino({ level: 'silent' })
