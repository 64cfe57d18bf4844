// The sponsorship ledger's contract, run against both stores: Redis (shared by replicas, one Lua script
// checks and counts) and memory (the embedded default). Concurrent admissions never pass a ceiling.
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import t from 'tap'
import { startRedis } from '../../../test/support/servers.ts'
import { createSponsorshipLedger, utcDay, type SponsorshipLedger } from '../sponsorship-ledger.ts'

const redisServer = await startRedis()
const redis = new Redis(redisServer.url)
t.teardown(async () => {
  redis.disconnect()
  await redisServer.dispose()
})

const PARTNER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const OTHER = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
// 11:00 UTC: 13 hours to the next day
const NOW = Date.UTC(2026, 10, 25, 11, 0, 0)
const ceilings = { partnerOnboardingsPerDay: 3, gasPerOperation: 1_000_000, dailyGas: 5_000_000 }

const stores: Record<string, (now?: () => number) => SponsorshipLedger> = {
  redis: (now = () => NOW) => createSponsorshipLedger({ ceilings, redis, namespace: `t${randomUUID().slice(0, 8)}`, now }),
  memory: (now = () => NOW) => createSponsorshipLedger({ ceilings, now }),
}

t.test('utcDay names the day and the seconds left in it', async (t) => {
  t.same(utcDay(NOW), { day: '2026-11-25', secondsLeft: 13 * 3600 })
  t.same(utcDay(Date.UTC(2026, 10, 25, 23, 59, 59, 500)), { day: '2026-11-25', secondsLeft: 1 })
})

for (const [store, create] of Object.entries(stores)) {
  t.test(`${store}: a partner's onboardings per day`, async (t) => {
    const ledger = create()
    t.equal(ledger.store, store)
    for (let n = 0; n < 3; n++) t.same(await ledger.admit(42161, PARTNER), { admitted: true })
    t.same(await ledger.admit(42161, PARTNER.toLowerCase()), {
      admitted: false,
      refusal: 'partner_daily_onboardings',
      retryAfterSeconds: 13 * 3600,
    })
    t.same(await ledger.admit(42161, OTHER), { admitted: true }, 'another partner has its own count')
    t.same(await ledger.admit(421614, PARTNER), { admitted: true }, 'another chain has its own count')
  })

  t.test(`${store}: the day's gas, held per admission and settled to what was used`, async (t) => {
    const ledger = create()
    const partners = Array.from({ length: 6 }, (_, n) => `0x${String(n + 1).padStart(40, '0')}`)
    for (const partner of partners.slice(0, 5)) t.same(await ledger.admit(42161, partner), { admitted: true })
    t.same(await ledger.admit(42161, partners[5]!), { admitted: false, refusal: 'daily_gas', retryAfterSeconds: 13 * 3600 })
    // one operation used 250,000 of its 1,000,000: 750,000 given back, still short of another hold
    await ledger.settle(42161, '2026-11-25', 250_000 - 1_000_000)
    t.match(await ledger.admit(42161, partners[5]!), { admitted: false, refusal: 'daily_gas' })
    // another sent nothing: its whole hold given back
    await ledger.settle(42161, '2026-11-25', -1_000_000)
    t.same(await ledger.admit(42161, partners[5]!), { admitted: true })
  })

  t.test(`${store}: a new UTC day starts from nothing`, async (t) => {
    let now = NOW
    const ledger = create(() => now)
    for (let n = 0; n < 3; n++) await ledger.admit(42161, PARTNER)
    t.match(await ledger.admit(42161, PARTNER), { admitted: false })
    now += 13 * 3600 * 1000
    t.same(await ledger.admit(42161, PARTNER), { admitted: true })
  })

  t.test(`${store}: 50 admissions at once never pass a ceiling`, async (t) => {
    const ledger = create()
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => ledger.admit(42161, PARTNER)))
    t.equal(outcomes.filter((outcome) => outcome.admitted).length, 3)
  })
}

t.test('redis: two replicas share one count', async (t) => {
  const namespace = `t${randomUUID().slice(0, 8)}`
  const [a, b] = [0, 1].map(() => createSponsorshipLedger({ ceilings, redis, namespace, now: () => NOW }))
  await a!.admit(42161, PARTNER)
  await b!.admit(42161, PARTNER)
  await a!.admit(42161, PARTNER)
  t.match(await b!.admit(42161, PARTNER), { admitted: false, refusal: 'partner_daily_onboardings' })
  const keys = (await redis.keys(`${namespace}:sponsorship:*`)).sort()
  t.same(keys, [
    `${namespace}:sponsorship:2026-11-25:42161:gas`,
    `${namespace}:sponsorship:2026-11-25:42161:partner:${PARTNER.toLowerCase()}`,
  ])
  for (const key of keys) t.equal(await redis.ttl(key), 2 * 24 * 3600, `${key} expires`)
})
