// Requests a start makes of a server that may not answer yet (a NATS cluster just formed, or electing a
// stream's leader, lets JetStream requests time out): asked again for a while, and only then does the start fail.

import { setTimeout as sleep } from 'node:timers/promises'

/** How long a start asks again, and how long it waits between tries. */
const START_RETRY = { withinMs: 30_000, everyMs: 500 }

/** `request` again until it succeeds or `withinMs` has passed since its first failure, then its last failure. */
export async function retriedAtStart<T>(request: () => Promise<T>, { withinMs, everyMs } = START_RETRY): Promise<T> {
  let deadline: number | undefined
  for (;;) {
    try {
      return await request()
    } catch (error) {
      // the clock read once per failure, the window counted from the first: a first failure is asked again
      // however long the process was paused before it
      const now = Date.now()
      deadline ??= now + withinMs
      if (now + everyMs > deadline) throw error
      await sleep(everyMs)
    }
  }
}
