import { Worker } from 'node:worker_threads'

/** Workers do not inherit tsx's loader on Node 20: each registers it before importing its module. */
const bootstrap = (moduleUrl: URL) => `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => {
  register()
  return import(${JSON.stringify(moduleUrl.href)})
})`

/** A command to a load worker; its reply carries the same id. */
export interface Command {
  id: number
  type: string
}

/**
 * Load workers in threads of this process, each running `moduleUrl` with its own input. Commands are
 * answered by id, so several may be in flight at once (a ramp's connects while a report is asked for).
 */
export class WorkerGroup<Input, Send extends { type: string }, Reply extends { id: number }> {
  private readonly workers: Worker[]
  private readonly pending = new Map<number, (reply: Reply) => void>()
  private nextId = 1
  private failure: Error | undefined

  constructor(moduleUrl: URL, inputs: Input[]) {
    this.workers = inputs.map((input) => {
      const worker = new Worker(bootstrap(moduleUrl), { eval: true, workerData: input })
      worker.on('message', (reply: Reply) => {
        const resolve = this.pending.get(reply.id)
        this.pending.delete(reply.id)
        resolve?.(reply)
      })
      worker.on('error', (error) => {
        this.failure = error
        console.error('load worker failed:', error)
      })
      return worker
    })
  }

  get size(): number {
    return this.workers.length
  }

  /** Sends `command(index)` to every worker and resolves with every reply, in worker order. */
  ask(command: (index: number) => Send): Promise<Reply[]> {
    if (this.failure) return Promise.reject(this.failure)
    return Promise.all(
      this.workers.map((worker, index) => {
        const id = this.nextId++
        const reply = new Promise<Reply>((resolve) => this.pending.set(id, resolve))
        worker.postMessage({ ...command(index), id })
        return reply
      }),
    )
  }

  async terminate(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()))
  }
}

/** `total` split as evenly as possible over `parts` (the first ones get the remainder). */
export const shareOf = (total: number, parts: number, index: number) => Math.floor(total / parts) + (index < total % parts ? 1 : 0)
