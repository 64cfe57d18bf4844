// The load test's onboard mode as a user runs it: partners printed for the allowlist, a service started
// separately on the development chains with them allowlisted, then real signed onboardings at a fixed rate.
import t from 'tap'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { writeDeployment } from '../../deploy/devnet/devnet.ts'
import type { LoadResult } from '../load-result.ts'
import { freePort } from '../../test/support/servers.ts'
import { startServiceProcess, UNUSED_INDEXED_SOURCE } from '../../test/support/service-process.ts'
import { devnetForFile } from '../../test/support/shared-devnet.ts'

const BIN = fileURLToPath(new URL('../bin.js', import.meta.url))
const loadtest = async (args: string[]) => (await promisify(execFile)(process.execPath, [BIN, ...args], { timeout: 120_000 })).stdout

const devnet = await devnetForFile(import.meta.url, { chainIds: [42161] })
t.teardown(() => devnet.stop())

t.test('onboard: fresh partners sign real onboardings, every one confirmed', async (t) => {
  const dir = t.testdir()
  const deploymentFile = join(dir, 'deployment.json')
  await writeDeployment(devnet, deploymentFile)
  const allowlist = (await loadtest(['onboard', '--print-partners', '6', '--partners-seed', 'test'])).trim()
  t.equal(allowlist.split(',').length, 6)
  t.match(allowlist, /^(0x[0-9a-fA-F]{40},){5}0x[0-9a-fA-F]{40}$/)
  const port = await freePort()
  const service = startServiceProcess(['edge', 'relayer'], {
    ...UNUSED_INDEXED_SOURCE,
    PORT: String(port),
    HOST: '127.0.0.1',
    DEPLOYMENT_FILE: deploymentFile,
    ONBOARD_ALLOWLIST: allowlist,
    RELAYER_POLLING_INTERVAL_MS: '100',
  })
  t.teardown(() => service.stop())
  await service.waitForLog('relayer smart account ready', 60_000)
  await service.waitForLog('edge listening', 60_000)

  const out = join(dir, 'onboard')
  const stdout = await loadtest([
    'onboard',
    '--target',
    `http://127.0.0.1:${port}`,
    '--deployment',
    deploymentFile,
    '--partners-seed',
    'test',
    '--rate',
    '2',
    '--duration',
    '3',
    '--out',
    out,
  ])
  t.match(stdout, /signing 6 onboardings for chain 42161/)
  t.match(stdout, /offered \d+\/s {2}answers \d+\/s/)
  const result = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as LoadResult
  t.equal(result.mode, 'onboard')
  t.same(result.totals, { offered: 6, answered: 6, unanswered: 0, outcomes: { confirmed: 6 } })
  t.equal(result.latency.count, 6)
  t.match(readFileSync(`${out}.html`, 'utf8'), /Load test: onboard/)
})
