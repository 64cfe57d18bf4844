// A small event emitter that runs in browsers and Node alike.

type EventMap<Events> = { [E in keyof Events]: unknown[] }
type Listener = (...args: unknown[]) => void
interface Registered {
  call: Listener
  /** the function the caller registered: what off() is given */
  original: unknown
}

export class TypedEmitter<Events extends EventMap<Events>> {
  private readonly listeners = new Map<keyof Events, Registered[]>()

  on<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): this {
    return this.add(event, { call: listener as unknown as Listener, original: listener })
  }

  once<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): this {
    const call = (...args: unknown[]) => {
      this.off(event, listener)
      ;(listener as unknown as Listener)(...args)
    }
    return this.add(event, { call, original: listener })
  }

  off<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): this {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((registered) => registered.original !== listener),
    )
    return this
  }

  removeListener<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): this {
    return this.off(event, listener)
  }

  /** resolves with the arguments of the next `event` */
  next<E extends keyof Events>(event: E): Promise<Events[E]> {
    return new Promise((resolve) => this.once(event, (...args) => resolve(args)))
  }

  emit<E extends keyof Events>(event: E, ...args: Events[E]): boolean {
    const registered = this.listeners.get(event) ?? []
    for (const { call } of [...registered]) call(...args)
    return registered.length > 0
  }

  private add(event: keyof Events, registered: Registered): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), registered])
    return this
  }
}
