import type { Redis } from 'ioredis'
import type { SponsorshipCeilings } from './config.ts'

/** Why an onboarding was not admitted for sponsorship today. */
export type DailyRefusal = 'partner_daily_onboardings' | 'daily_gas'

export type Admission = { admitted: true } | { admitted: false; refusal: DailyRefusal; retryAfterSeconds: number }

/**
 * What the operator has paid for today (UTC), per chain: onboardings admitted per partner, and gas held or
 * spent. An admitted onboarding holds `gasPerOperation` (the most its operation may be given) until the
 * relayer settles it with the gas the operation really used, or releases it when nothing was sent. Shared
 * by every replica through Redis (one Lua script: check and count in one step), in memory when embedded.
 */
export interface SponsorshipLedger {
  readonly store: 'redis' | 'memory'
  /** counts the onboarding and holds its gas, unless either ceiling would be passed (then nothing is counted) */
  admit(chainId: number, partner: string): Promise<Admission>
  /** adds `gasDelta` (negative to give back) to the chain's gas of the day the onboarding was admitted on */
  settle(chainId: number, admittedOnDay: string, gasDelta: number): Promise<void>
}

const SECONDS_PER_DAY = 24 * 60 * 60
/** kept a day past their own, so a settlement that arrives after midnight still finds its day */
const KEEP_SECONDS = 2 * SECONDS_PER_DAY

/** The UTC day `now` falls on, e.g. 2026-11-25, and the seconds until the next one begins. */
export function utcDay(now = Date.now()): { day: string; secondsLeft: number } {
  const secondsLeft = Math.max(1, SECONDS_PER_DAY - (Math.floor(now / 1000) % SECONDS_PER_DAY))
  return { day: new Date(now).toISOString().slice(0, 10), secondsLeft }
}

// KEYS: the partner's count, the chain's gas. ARGV: partner ceiling, gas ceiling, gas held per onboarding, TTL.
// Returns 0 when admitted, 1 when the partner's ceiling refuses, 2 when the day's gas does.
const ADMIT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return 1 end
local gas = tonumber(redis.call('GET', KEYS[2]) or '0')
if gas + tonumber(ARGV[3]) > tonumber(ARGV[2]) then return 2 end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('INCRBY', KEYS[2], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 0
`

export function createSponsorshipLedger(options: {
  ceilings: SponsorshipCeilings
  redis?: Redis
  namespace?: string
  now?: () => number
}): SponsorshipLedger {
  const { ceilings, redis } = options
  const now = options.now ?? Date.now
  const prefix = `${options.namespace ? `${options.namespace}:` : ''}sponsorship`
  const partnerKey = (day: string, chainId: number, partner: string) => `${prefix}:${day}:${chainId}:partner:${partner.toLowerCase()}`
  const gasKey = (day: string, chainId: number) => `${prefix}:${day}:${chainId}:gas`
  const refusalOf = (code: number, secondsLeft: number): Admission =>
    code === 0
      ? { admitted: true }
      : { admitted: false, refusal: code === 1 ? 'partner_daily_onboardings' : 'daily_gas', retryAfterSeconds: secondsLeft }

  if (redis) {
    return {
      store: 'redis',
      async admit(chainId, partner) {
        const { day, secondsLeft } = utcDay(now())
        const keys = [partnerKey(day, chainId, partner), gasKey(day, chainId)]
        const args = [ceilings.partnerOnboardingsPerDay, ceilings.dailyGas, ceilings.gasPerOperation, KEEP_SECONDS]
        return refusalOf(Number(await redis.eval(ADMIT, keys.length, ...keys, ...args)), secondsLeft)
      },
      async settle(chainId, day, gasDelta) {
        if (gasDelta !== 0) await redis.incrby(gasKey(day, chainId), gasDelta)
      },
    }
  }

  // one process: a map per day, the days before yesterday dropped as they pass
  const counts = new Map<string, number>()
  const forgetOldDays = (today: string) => {
    const yesterday = utcDay(now() - SECONDS_PER_DAY * 1000).day
    for (const key of counts.keys()) if (!key.includes(today) && !key.includes(yesterday)) counts.delete(key)
  }
  return {
    store: 'memory',
    async admit(chainId, partner) {
      const { day, secondsLeft } = utcDay(now())
      forgetOldDays(day)
      const [partnerCount, gas] = [partnerKey(day, chainId, partner), gasKey(day, chainId)]
      const code =
        (counts.get(partnerCount) ?? 0) >= ceilings.partnerOnboardingsPerDay
          ? 1
          : (counts.get(gas) ?? 0) + ceilings.gasPerOperation > ceilings.dailyGas
            ? 2
            : 0
      if (code === 0) {
        counts.set(partnerCount, (counts.get(partnerCount) ?? 0) + 1)
        counts.set(gas, (counts.get(gas) ?? 0) + ceilings.gasPerOperation)
      }
      return refusalOf(code, secondsLeft)
    },
    async settle(chainId, day, gasDelta) {
      const key = gasKey(day, chainId)
      if (counts.has(key)) counts.set(key, counts.get(key)! + gasDelta)
    },
  }
}
