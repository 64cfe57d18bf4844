import { inspect } from 'node:util'

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
