import { httpBase } from './targets.ts'

/**
 * The service's clock minus ours, from the `time` field of GET /v1/status (ms since the epoch): the sample
 * with the shortest round trip, assuming the service read its clock half-way. Uncertainty: half that trip.
 * `target` in any form (ws:// and wss:// name the same host and port as http:// and https://).
 */
export async function estimateClockOffset(target: string, samples = 7): Promise<{ offsetMs: number; uncertaintyMs: number }> {
  let best: { offsetMs: number; uncertaintyMs: number } | undefined
  for (let sample = 0; sample < samples; sample++) {
    const sentAt = performance.timeOrigin + performance.now()
    const response = await fetch(new URL('/v1/status', httpBase(target)))
    const receivedAt = performance.timeOrigin + performance.now()
    if (response.status !== 200) throw new Error(`GET /v1/status answered ${response.status}: cannot estimate the service's clock`)
    const { time } = (await response.json()) as { time: number }
    const roundTrip = receivedAt - sentAt
    if (!best || roundTrip / 2 < best.uncertaintyMs) best = { offsetMs: time - (sentAt + roundTrip / 2), uncertaintyMs: roundTrip / 2 }
  }
  return { offsetMs: Math.round(best!.offsetMs * 10) / 10, uncertaintyMs: Math.round(best!.uncertaintyMs * 10) / 10 }
}
