import type { OhlcResolution } from '../../schemas/ohlc.ts'

/** Period width of each resolution. Periods start at the Unix epoch, so `1D` runs 00:00 to 24:00 UTC. */
export const RESOLUTION_SECONDS: Readonly<Record<OhlcResolution, number>> = {
  '1': 60,
  '5': 300,
  '15': 900,
  '60': 3_600,
  '240': 14_400,
  '1D': 86_400,
}
