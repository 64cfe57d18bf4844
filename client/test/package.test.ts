// The client as an application installs it: built with tsc to JS and .d.ts, resolved through its
// package.json exports, type-checked and run by plain Node against a running service.
import t from 'tap'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { z } from 'zod'
import type * as schemas from '../../schemas/stream.ts'
import type { PriceRow as RowSchema } from '../../schemas/price.ts'
import { compileTypeScript, startServiceForApp, writeTypeScriptApp } from '../../test/support/typescript-app.ts'
import { EVENT_DEADLINE_MS, START_DEADLINE_MS, waitFor } from '../../test/support/wait.ts'
import type * as frames from '../src/stream-frames.ts'

// the client's own frame types are the service's schemas, field for field (a compile-time check)
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const parity: [
  Same<frames.PriceRow, RowSchema>,
  Same<frames.SnapshotFrame, z.infer<typeof schemas.SnapshotFrame>>,
  Same<frames.TickFrame, z.infer<typeof schemas.TickFrame>>,
  Same<frames.GapFrame, z.infer<typeof schemas.GapFrame>>,
  Same<frames.SnapshotFrameWithCursor, z.infer<typeof schemas.SnapshotFrameWithCursor>>,
  Same<frames.TickFrameWithCursor, z.infer<typeof schemas.TickFrameWithCursor>>,
  Same<frames.GapFrameWithCursor, z.infer<typeof schemas.GapFrameWithCursor>>,
  Same<frames.ResumedFrame, z.infer<typeof schemas.ResumedFrame>>,
  Same<frames.HeartbeatFrame, z.infer<typeof schemas.HeartbeatFrame>>,
  Same<frames.HeartbeatFrameWithCursor, z.infer<typeof schemas.HeartbeatFrameWithCursor>>,
  Same<frames.AckFrame, z.infer<typeof schemas.AckFrame>>,
  Same<frames.ErrorFrame, z.infer<typeof schemas.ErrorFrame>>,
  Same<frames.CompactSnapshotFrame, z.infer<typeof schemas.CompactSnapshotFrame>>,
  Same<frames.CompactSnapshotFrameWithCursor, z.infer<typeof schemas.CompactSnapshotFrameWithCursor>>,
  Same<frames.StaticFrame, z.infer<typeof schemas.StaticFrame>>,
  Same<frames.CompactTickFrame, z.infer<typeof schemas.CompactTickFrame>>,
  Same<frames.CompactTickFrameWithCursor, z.infer<typeof schemas.CompactTickFrameWithCursor>>,
  Same<frames.BatchFrame, z.infer<typeof schemas.BatchFrame>>,
  Same<frames.ClientMessage, z.infer<typeof schemas.ClientMessage>>,
  Same<frames.StreamCandle, z.infer<typeof schemas.StreamCandle>>,
  Same<frames.CandleSnapshotFrame, z.infer<typeof schemas.CandleSnapshotFrame>>,
  Same<frames.CandleFrame, z.infer<typeof schemas.CandleFrame>>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]

const run = promisify(execFile)
const packageDirectory = fileURLToPath(new URL('..', import.meta.url))

// what an application writes: the REST client and the stream client, from the package's two entries
const APP = `
import { createRestClient, PriceStreamClient, type PriceRow } from '@venue/gateway-client'
import { nodeSocket } from '@venue/gateway-client/node'

const baseUrl = process.argv[2]!
const api = createRestClient({ baseUrl })
const { data: btc } = await api.GET('/v1/prices/{pair}', { params: { path: { pair: 'BTC-USD' } } })
const { data: limits } = await api.GET('/v1/limits', { params: { query: { trader: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', first: 2 } } })
const stream = new PriceStreamClient({ baseUrl, pairs: ['BTC-USD', 'ETH-USD'], openSocket: nodeSocket() }).start()
const [rows]: [PriceRow[]] = await stream.next('snapshot')
const [row, seq] = await stream.next('price')
const pairCount = await stream.subscribe(['XAU-USD'])
await stream.close()
console.log(JSON.stringify({ btc: btc?.pair, schedule: btc?.schedule, limits: limits?.first, snapshot: rows.map((r) => r.pair), tick: [row.pair, typeof seq], pairCount }))
`

t.test('the client builds to JS and .d.ts; an app resolves it by name, type-checks and runs it against a live service', async (t) => {
  t.ok(parity.every(Boolean))
  t.equal(await compileTypeScript(packageDirectory), '', 'the client builds')
  for (const file of ['index.js', 'index.d.ts', 'node.js', 'node.d.ts']) {
    t.ok(existsSync(join(packageDirectory, 'dist', file)), `dist/${file}`)
  }

  // the app's own folder, with the package installed by name (a link, as `npm install <folder>` makes)
  const app = mkdtempSync(join(tmpdir(), 'client-app-'))
  mkdirSync(join(app, 'node_modules', '@venue'), { recursive: true })
  symlinkSync(packageDirectory, join(app, 'node_modules', '@venue', 'gateway-client'))
  writeTypeScriptApp({
    folder: app,
    files: { 'package.json': JSON.stringify({ type: 'module' }), 'app.ts': APP },
    compilerOptions: {
      types: ['node'],
      typeRoots: [fileURLToPath(new URL('../../node_modules/@types', import.meta.url))],
      outDir: 'out',
    },
    include: ['app.ts'],
  })
  t.equal(await compileTypeScript(app), '', 'the app type-checks against the published .d.ts')

  const service = await startServiceForApp()
  t.teardown(() => service.stop())
  const { baseUrl } = service
  await waitFor(async () => (await fetch(`${baseUrl}/v1/prices`)).status === 200, {
    timeoutMs: EVENT_DEADLINE_MS,
    what: "the feed's first tick",
  })

  const { stdout } = await run(process.execPath, [join(app, 'out', 'app.js'), baseUrl], { timeout: START_DEADLINE_MS })
  const { tick, ...rest } = JSON.parse(stdout) as { tick: [string, string] }
  t.same(rest, {
    btc: 'BTC-USD',
    schedule: {
      id: 0,
      alwaysOpen: true,
      timezone: 'UTC',
      openingHours: ['O', 'O', 'O', 'O', 'O', 'O', 'O'],
      dayTradingHours: { from: 'open+00:01', to: 'close-00:15' },
    },
    limits: 2,
    snapshot: ['BTC-USD', 'ETH-USD'],
    pairCount: 3,
  })
  t.ok(['BTC-USD', 'ETH-USD'].includes(tick[0]) && tick[1] === 'number', 'a tick of a pair asked for, with its seq')
})
