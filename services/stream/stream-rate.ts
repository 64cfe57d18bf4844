import { STREAM_RATES } from '../../schemas/stream.ts'

/** How often a connection receives rows (`?rate=`; the values are in schemas/stream.ts). */
export { STREAM_RATES }

export type StreamRate = (typeof STREAM_RATES)[number]
export type FixedRate = Exclude<StreamRate, 'real_time'>

export const FIXED_RATES = STREAM_RATES.filter((rate): rate is FixedRate => rate !== 'real_time')

/** The window of a fixed rate, in milliseconds. */
export const windowMsOf = (rate: FixedRate): number => Number(rate.slice('fixed_rate@'.length, -'ms'.length))
