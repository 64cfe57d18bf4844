// The HISTORY_* variables: defaults, the backfill's syntax and its limit (no further back than the store
// keeps), the key inline or from a file but not both, and a key never shown.

import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { historyConfig } from '../history-config.ts'

t.test('defaults: no source, a day of minutes and a month of hours backfilled', async (t) => {
  const config = historyConfig({}, 20_160)
  t.strictSame(
    { ...config, apiKey: config.apiKey?.reveal() },
    {
      url: undefined,
      apiKey: undefined,
      timeoutMs: 5000,
      callsPerMinute: 120,
      barsPerCall: 1000,
      backfillSeconds: { '1': 86_400, '60': 2_592_000 },
    },
  )
})

t.test('the backfill: resolutions and durations; none when empty; refused past the store or malformed', async (t) => {
  t.strictSame(historyConfig({ HISTORY_BACKFILL: '5:90m, 1D:365d' }, 20_160).backfillSeconds, { '5': 5400, '1D': 31_536_000 })
  t.strictSame(historyConfig({ HISTORY_BACKFILL: '' }, 20_160).backfillSeconds, {})
  t.throws(() => historyConfig({ HISTORY_BACKFILL: '1:15d' }, 20_160), {
    code: 'config_invalid',
    message:
      'invalid configuration for history: HISTORY_BACKFILL="1:15d": reaches back further than the store keeps (1 beyond 20160 candles; CANDLES_KEEP_PER_RESOLUTION)',
  })
  t.throws(() => historyConfig({ HISTORY_BACKFILL: '2:1d' }, 20_160), {
    message:
      'invalid configuration for history: HISTORY_BACKFILL="2:1d": must be <resolution>:<duration>,… (resolutions 1, 5, 15, 60, 240, 1D; durations like 90m, 12h, 30d)',
  })
  t.throws(() => historyConfig({ HISTORY_URL: 'not a url' }, 20_160), {
    message: /^invalid configuration for history: HISTORY_URL="not a url"/,
  })
})

t.test('the key: inline or from a file, not both; held as a secret', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'history-key-')), 'key')
  writeFileSync(file, 'k3y\n')
  const fromFile = historyConfig({ HISTORY_URL: 'https://pyth.dourolabs.app/v1/fixed_rate@200ms', HISTORY_API_KEY_FILE: file }, 20_160)
  t.equal(fromFile.apiKey?.reveal(), 'k3y')
  t.notMatch(inspect(fromFile) + JSON.stringify(fromFile), /k3y/, 'never printed')
  t.throws(() => historyConfig({ HISTORY_API_KEY: 'a', HISTORY_API_KEY_FILE: file }, 20_160), {
    message: 'invalid configuration for history: HISTORY_API_KEY: set HISTORY_API_KEY or HISTORY_API_KEY_FILE, not both',
  })
})
