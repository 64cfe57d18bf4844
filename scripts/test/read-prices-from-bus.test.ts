// The bus-reader example's --from against a real nats-server: it replays the ticks after a cursor from the
// deployment's tick stream (per-pair seq and cursor as the edges give them), filtered to the pairs asked for;
// a cursor of another epoch is refused; a malformed one gets the usage.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { natsPriceBus } from '../../bus/nats-price-bus.ts'
import { runTypeScript } from '../../test/support/command-run.ts'
import { priceRow, rowBytes } from '../../test/support/price-rows.ts'
import { startNats } from '../../test/support/servers.ts'
import { silentLogger } from '../../test/support/silent-logger.ts'
import { waitFor } from '../../test/support/wait.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())
const namespace = `reader${randomUUID().slice(0, 8)}`
const bus = await natsPriceBus({ servers: nats.url, namespace, name: 'reader-test-publisher', publishes: true, logger: silentLogger() })
t.teardown(() => bus.close())
const env = { ...process.env, NATS_URL: nats.url, BUS_NAMESPACE: namespace }
const epoch = bus.tickLog.epoch

// 9 ticks, positions 1 to 9: BTC, ETH, XAU in turn, mids 1 to 9
const PAIRS = ['BTC-USD', 'ETH-USD', 'XAU-USD']
for (let mid = 1; mid <= 9; mid++) bus.publishTick(PAIRS[(mid - 1) % 3]!, rowBytes(priceRow(PAIRS[(mid - 1) % 3]!, { mid })))
let held = 0
const counting = bus.tickLog.follow(() => held++)
t.teardown(() => counting.stop())
await waitFor(() => held === 9, { what: 'the 9 ticks in the tick stream' })

t.test('--from replays the ticks after the cursor of the pairs asked for, with their seq and cursor', async (t) => {
  const run = await runTypeScript('scripts/read-prices-from-bus.ts', ['--from', `${epoch}-4`, '--seconds', '1', 'BTC-USD', 'ETH-USD'], {
    env,
  })
  t.equal(run.code, 0, run.stderr)
  t.same(run.stdout.trim().split('\n'), [
    `recovered: the ticks after ${epoch}-4 (up to 9 held now), then live ones`,
    `tick ETH-USD seq 2 mid 5 cursor ${epoch}-5`,
    `tick BTC-USD seq 3 mid 7 cursor ${epoch}-7`,
    `tick ETH-USD seq 3 mid 8 cursor ${epoch}-8`,
    '3 ticks',
  ])
})

t.test('a cursor of another epoch is not recovered', async (t) => {
  const run = await runTypeScript('scripts/read-prices-from-bus.ts', ['--from', 'zz-4', '--seconds', '1'], { env })
  t.equal(run.code, 1)
  t.equal(
    run.stdout.trim(),
    `not recovered: the cursor is of another epoch (the tick stream's is ${epoch}); read the latest rows instead (without --from)`,
  )
})

t.test('a malformed cursor gets the usage and exit 2', async (t) => {
  const run = await runTypeScript('scripts/read-prices-from-bus.ts', ['--from', 'nope'], { env })
  t.equal(run.code, 2)
  t.match(run.stderr, /^usage: npm run example:bus-reader -- \[--from CURSOR\] \[PAIR \.\.\.\]/)
  t.match(run.stderr, /--from is a cursor such as 1a2b3c-42, not "nope"/)
})
