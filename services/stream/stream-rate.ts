/**
 * How often a connection receives rows (`?rate=`): `real_time` (the default) sends every tick as it comes;
 * `fixed_rate@<n>ms` sends, at the end of each n ms window, the latest row of each pair that changed in it.
 */
export const STREAM_RATES = ['real_time', 'fixed_rate@50ms', 'fixed_rate@200ms', 'fixed_rate@1000ms'] as const

export type StreamRate = (typeof STREAM_RATES)[number]
export type FixedRate = Exclude<StreamRate, 'real_time'>

export const FIXED_RATES = STREAM_RATES.filter((rate): rate is FixedRate => rate !== 'real_time')

/** The window of a fixed rate, in milliseconds. */
export const windowMsOf = (rate: FixedRate): number => Number(rate.slice('fixed_rate@'.length, -'ms'.length))
