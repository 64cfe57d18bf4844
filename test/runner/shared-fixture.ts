// A server the run's test files share (the development chain, Chromium): started once, and stopped when the last
// file that needs it has ended. A failed start is tried once more; a second failure is the fixture's, reported
// once with its cause, and the files that needed it are not run.

/** What the scheduler and the report see of a shared server, whatever it holds. */
export interface Fixture {
  readonly name: string
  readonly ready: boolean
  readonly failure: Error | undefined
  readonly settled: Promise<void>
  start(): void
  stop(): Promise<void>
}

export class SharedFixture<T> implements Fixture {
  private starting: Promise<T> | undefined
  private value: T | undefined
  private stopped = false
  /** set once both starts have failed */
  failure: Error | undefined
  /** resolves once a start has succeeded or failed for good */
  readonly settled: Promise<void>
  private settle!: () => void

  constructor(
    /** for the run's output: "the shared development chain" */
    readonly name: string,
    /** starts it, and cleans up after itself when it fails */
    private readonly launch: () => Promise<T>,
    private readonly shutDown: (value: T) => Promise<void>,
  ) {
    this.settled = new Promise((resolve) => (this.settle = resolve))
  }

  get ready(): boolean {
    return this.value !== undefined
  }

  /** Starts it unless it is started or starting; see `settled` and `failure` for the outcome. */
  start(): void {
    if (this.starting || this.stopped) return
    this.starting = this.launch().catch((error: Error) => {
      console.log(`# ${this.name} did not start (${firstLine(error)}); starting it once more`)
      return this.launch()
    })
    this.starting
      .then(
        (value) => void (this.value = value),
        (error: Error) => void (this.failure = error),
      )
      .finally(this.settle)
  }

  /** The running server, for the files that need it. */
  get(): T {
    if (this.value === undefined) throw new Error(`${this.name} is not ready`)
    return this.value
  }

  /** Stops it (a start under way is waited for); a second call does nothing. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    const value = await this.starting?.catch(() => undefined)
    this.value = undefined
    if (value !== undefined) await this.shutDown(value)
  }
}

export function firstLine(error: Error): string {
  return error.message.split('\n')[0] ?? ''
}
