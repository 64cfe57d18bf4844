// A machine that pauses the process between any two readings of the clock, for the code that must hold up there.
import type { Test } from 'tap'

/** Until the test ends, each `Date.now()` reads `stepMs` later than the one before. */
export function jumpingClock(t: Test, stepMs: number): void {
  const realNow = Date.now
  let clock = realNow()
  Date.now = () => (clock += stepMs)
  t.teardown(() => {
    Date.now = realNow
  })
}
