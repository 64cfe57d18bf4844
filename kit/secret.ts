import { readFileSync } from 'node:fs'
import { inspect } from 'node:util'
import { ServiceError } from './errors.ts'

const REDACTED = '[redacted]'

/** Holds a secret (a private key) so that logging, printing or serialising the holder never shows it. */
export class Secret<T> {
  readonly #value: T

  constructor(value: T) {
    this.#value = value
  }

  /** the secret itself: hand it only to the code that uses it */
  reveal(): T {
    return this.#value
  }

  toJSON(): string {
    return REDACTED
  }

  toString(): string {
    return REDACTED
  }

  [inspect.custom](): string {
    return `Secret(${REDACTED})`
  }
}

/**
 * The trimmed content of a file holding one secret (a `*_FILE` variable). The messages name the file and
 * what it should hold, never its content. `role` names the configuration, as the other messages do.
 */
export function readSecretFile(
  role: string,
  variable: string,
  file: string,
  holds: { check: (text: string) => boolean; what: string },
): string {
  const invalid = (message: string, cause?: unknown) =>
    new ServiceError('config_invalid', `invalid configuration for ${role}: ${variable} ${file} ${message}`, { cause })
  let text: string
  try {
    text = readFileSync(file, 'utf8').trim()
  } catch (error) {
    throw invalid('cannot be read', error)
  }
  if (!holds.check(text)) throw invalid(`does not hold ${holds.what}`)
  return text
}
