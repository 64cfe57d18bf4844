import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import t from 'tap'
import { parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevnet, toDeployment, writeDeployment } from '../../deploy/devnet/devnet.ts'
import { chainTimePlus, signOnboarding } from '../../services/onboarding/partner-client.ts'
import { devnetChain } from '../support/devnet-chain.ts'
import { readJson } from '../support/http.ts'
import { startOnboardingStack } from '../support/onboarding-stack.ts'
import { startRelayerWorker, type RelayerWorkerProcess } from '../support/relayer-worker-process.ts'
import { startRedis } from '../support/servers.ts'
import { waitFor, withDeadline } from '../support/wait.ts'

// A relayer killed right after it sent the user operation must not send a second one: the next worker finds
// the operation recorded in the job, waits for it, and completes the job. Real processes, Redis and chain.

const devnet = await startDevnet({ chainIds: [42161] })
const deployment = toDeployment(devnet)
const redisServer = await startRedis()
const redis = new Redis(redisServer.url, { maxRetriesPerRequest: null })
const chain = devnetChain(devnet.chain(42161))
const workers: RelayerWorkerProcess[] = []
t.teardown(async () => {
  for (const worker of workers) worker.kill('SIGKILL')
  await Promise.all(workers.map((worker) => worker.exited))
  chain.close()
  await redis.quit()
  await redisServer.dispose()
  await devnet.stop()
})

t.test('a worker killed after sending leaves exactly one user operation, and the next one completes the job', async (t) => {
  const deploymentFile = join(t.testdir(), 'deployment.json')
  await writeDeployment(devnet, deploymentFile)
  const namespace = `crash${randomUUID().slice(0, 8)}`
  const partner = privateKeyToAccount(generatePrivateKey())
  // The intake in this process; the relayer only in child processes.
  const intake = await startOnboardingStack({
    deployment,
    allowlist: [partner.address],
    redis,
    namespace,
    relayer: false,
    deadlineMs: 60_000,
  })
  t.teardown(() => intake.stop())
  const workerEnv = {
    REDIS_URL: redisServer.url,
    BUS_NAMESPACE: namespace,
    DEPLOYMENT_FILE: deploymentFile,
    RELAYER_POLLING_INTERVAL_MS: '50',
  }
  const soon = await chainTimePlus(chain.publicClient, 30 * 60)
  const body = await signOnboarding({
    chain: chain.chain,
    client: chain.publicClient,
    signer: partner,
    delegation: { expiry: soon },
    permit: { value: parseUnits('100', 6), deadline: soon },
  })

  const first = startRelayerWorker(workerEnv)
  workers.push(first)
  await first.waitForLog('relayer smart account ready')
  const fromBlock = await chain.publicClient.getBlockNumber()
  // Blocks wait for the test, so the operation is still pending when its worker dies.
  await chain.anvil.setAutomine(false)
  t.teardown(() => chain.anvil.setAutomine(true))
  const answering = fetch(`${intake.baseUrl}/v1/onboard`, { method: 'POST', headers: { connection: 'close' }, body: JSON.stringify(body) })

  const sent = await first.waitForLog('user operation sent', 30_000)
  first.kill('SIGKILL')
  t.equal(await withDeadline(first.exited, 5000, 'the first worker to die'), null, 'killed')

  const second = startRelayerWorker(workerEnv)
  workers.push(second)
  const resumed = await second.waitForLog('resuming a submitted user operation', 30_000)
  t.equal(resumed.userOpHash, sent.userOpHash, 'the second worker resumes the operation the first one sent')
  await waitFor(async () => (await chain.anvil.getTxpoolStatus()).pending > 0, { timeoutMs: 15_000, what: 'the bundle transaction' })
  await chain.anvil.mine({ blocks: 1 })
  await chain.anvil.setAutomine(true)

  const response = await withDeadline(answering, 30_000, 'the answer')
  t.equal(response.status, 200)
  const answer = await readJson(response)
  t.equal(answer.status, 'confirmed')
  t.equal(answer.userOpHash, sent.userOpHash)
  t.same(answer.state, { onboarded: true, missing: [], delegate: chain.chain.contracts.wrapper, allowance: '100000000' })
  const operations = await chain.onboardingOperationsAfter(deployment.relayer.smartAccountAddress, fromBlock)
  t.same(
    operations.map((event) => event.args.userOpHash),
    [sent.userOpHash],
    'exactly one user operation on chain',
  )
  await second.waitForLog('onboarding relayed')

  const logs = [...first.lines, ...second.lines].join('\n')
  t.notOk(logs.includes(deployment.relayer.devnetRelayerPrivateKey.slice(2)), 'the relayer key is in no log')
  t.notOk(logs.includes(body.delegation!.signature.slice(2)), 'the partner signatures are in no log')

  second.kill('SIGTERM')
  t.equal(await withDeadline(second.exited, 10_000, 'the second worker to stop'), 0, 'stops cleanly on SIGTERM')
})
