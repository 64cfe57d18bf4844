// `npm run demo:onboard` before the service's chains are up, or without them: it waits on the service's word
// (`details.onboarding` of /readyz), then says plainly what is missing, in one line and without a stack trace.
// The demo's onboarding itself, right after `npm start` serves its first price: test/e2e/embedded-start.test.ts.
import { createServer } from 'node:http'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { runTypeScript, STACK_FRAME } from '../../test/support/command-run.ts'
import { listenOnLoopback } from '../../test/support/loopback-http.ts'
import { freePort } from '../../test/support/servers.ts'

/** An ops listener whose /readyz reports `details`, counting the requests it gets. */
async function opsListener(t: Test, details: Record<string, unknown> | undefined) {
  let requests = 0
  const server = createServer((request, response) => {
    requests++
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ ready: true, checks: {}, ...(details && { details }) }))
  })
  const listening = await listenOnLoopback(server)
  t.teardown(listening.close)
  return { url: listening.url, requests: () => requests }
}

const demo = (args: string[]) => runTypeScript('scripts/demo-onboard.ts', args)
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)

t.test('chains still starting at the deadline: progress lines while it waits, then one line saying so', async (t) => {
  const ops = await opsListener(t, { onboarding: 'starting' })
  const run = await demo(['http://127.0.0.1:9', '--ops', ops.url, '--wait-seconds', '1'])
  t.equal(run.code, 1)
  t.equal(run.stdout, '')
  // the seconds since it started: 0 on an idle machine, 1 where loading the script took longer
  t.match(run.stderr, /^\[ {2,3}\d+ s\] the service's development chains are still starting; waiting up to 1 s\n/)
  t.equal(lastLine(run.stderr), "demo:onboard: the service's development chains are still starting after 1 s; run this again shortly")
  t.ok(ops.requests() >= 2, 'it asked again while it waited')
  t.notMatch(run.stderr, STACK_FRAME)
})

t.test('onboarding unavailable, or none: no wait, one line naming why', async (t) => {
  const [unavailable, none] = await Promise.all([opsListener(t, { onboarding: 'unavailable' }), opsListener(t, undefined)])
  const [first, second] = await Promise.all([demo(['--ops', unavailable.url]), demo(['--ops', none.url])])
  t.equal(first.code, 1)
  t.equal(first.stderr, "demo:onboard: the service's onboarding is unavailable: its chains could not be set up (see its log)\n")
  t.equal(second.code, 1)
  t.equal(
    second.stderr,
    `demo:onboard: ${none.url}/readyz reports no onboarding: the service runs with ONBOARDING_ENABLED=false, or that is not its ops listener\n`,
  )
})

t.test('no ops listener answers: the default deployment file is no evidence, and the demo says it cannot tell', async (t) => {
  const opsUrl = `http://127.0.0.1:${await freePort()}`
  const run = await demo(['http://127.0.0.1:9', '--ops', opsUrl])
  t.equal(run.code, 1)
  t.equal(run.stdout, '')
  t.match(run.stderr, `cannot ask ${opsUrl}/readyz whether the service's chains are up (set OPS_PORT or --ops); trying the deployment file`)
  // the file is missing, or names chains that do not answer: either way the same verdict
  t.match(
    lastLine(run.stderr),
    `: cannot tell whether the service's chains are still starting or not running: no ops listener answers at ${opsUrl}, ` +
      "and the deployment file may be an earlier run's; set OPS_PORT to the service's, or give --ops URL",
  )
  t.notMatch(run.stderr, /not running; start them/)
  t.notMatch(run.stderr, STACK_FRAME)
})

t.test('a deployment file given: no wait on the service; its chains not answering is said in one line', async (t) => {
  const ops = await opsListener(t, { onboarding: 'starting' })
  const rpcPort = await freePort()
  const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`
  const file = join(mkdtempSync(join(tmpdir(), 'demo-')), 'deployment.json')
  // a record as a previous run leaves it: the chains it names have stopped
  writeFileSync(
    file,
    JSON.stringify({
      chains: [
        {
          chainId: 42161,
          rpcUrl: `http://127.0.0.1:${rpcPort}`,
          bundlerUrl: `http://127.0.0.1:${rpcPort}`,
          entryPoint: address(1),
          accountFactory: address(2),
          contracts: { trading: address(3), tradingStorage: address(4), usdc: address(5), wrapper: address(6) },
          usdcHasPermit: true,
        },
      ],
      relayer: { address: address(7), smartAccountAddress: address(8), devnetRelayerPrivateKey: `0x${'1'.repeat(64)}` },
      demoPartner: { address: address(9), privateKey: `0x${'2'.repeat(64)}` },
    }),
  )
  const run = await demo(['http://127.0.0.1:9', file, '--ops', ops.url])
  t.equal(run.code, 1)
  t.equal(ops.requests(), 0, 'the service was not asked')
  t.match(
    lastLine(run.stderr),
    new RegExp(
      `^demo:onboard: chain 42161 does not answer at http://127\\.0\\.0\\.1:${rpcPort} \\(named in ${file}\\): its chains are not running; start them with npm start or npm run devnet \\(`,
    ),
  )
  t.notMatch(run.stderr, STACK_FRAME)
})
