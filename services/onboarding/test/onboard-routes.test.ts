import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import t from 'tap'
import { encodeFunctionData, parseUnits, toFunctionSelector, zeroAddress, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { contractWalletAbi } from '../../../deploy/devnet/devnet-abis.ts'
import { permitUsdcAbi, tradingAbi } from '../../venue-contracts/abis.ts'
import { anvilAccount, firstFreeAccountIndex } from '../../../deploy/devnet/accounts.ts'
import { startDevnet, toDeployment, writeDeployment } from '../../../deploy/devnet/devnet.ts'
import { deployContractWallet } from '../../../deploy/devnet/venue-contracts.ts'
import { devnetChain } from '../../../test/support/devnet-chain.ts'
import { postOnboarding as post, readJson } from '../../../test/support/http.ts'
import { startJsonRpcProxy } from '../../../test/support/json-rpc-proxy.ts'
import { startOnboardingStack } from '../../../test/support/onboarding-stack.ts'
import { startRedis } from '../../../test/support/servers.ts'
import { waitFor, withDeadline } from '../../../test/support/wait.ts'
import { chainTimePlus, signOnboarding } from '../../../loadtest/partner-signer.ts'
import { onboardingJobId } from '../relay-job.ts'
import { nodeArgumentsFor } from '../../../test/support/node-script.ts'

// One development chain (42161 and 421614, anvil + alto + EntryPoint v0.8) and one Redis for the file.
// Each test onboards partners of its own, so chain state never carries over between tests.
// The chain is the file's own, not the run's shared one: a test pauses mining and sets the next block's time
// (a batch that passes simulation and reverts on chain), which would stall and skew every other file's chain.

const HUNDRED_USDC = parseUnits('100', 6)
const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

const devnet = await startDevnet()
const deployment = toDeployment(devnet)
const redisServer = await startRedis()
const redis = new Redis(redisServer.url, { maxRetriesPerRequest: null })
const one = devnetChain(devnet.chain(42161))
const sepolia = devnetChain(devnet.chain(421614))
const relayerAccount = deployment.relayer.smartAccountAddress

// Partners: fresh keys (onboarding is gasless, they need no ETH); anvil accounts where a wallet sends its own
// transactions; a contract wallet whose owner signs for it.
const freshPartners = Array.from({ length: 12 }, () => privateKeyToAccount(generatePrivateKey()))
const approver = privateKeyToAccount(anvilAccount(firstFreeAccountIndex).privateKey)
const walletOwnerKey = anvilAccount(firstFreeAccountIndex + 1).privateKey
const walletOwner = privateKeyToAccount(walletOwnerKey)
const contractWallet = await deployContractWallet(one.wallet(walletOwnerKey), devnet.compiledContracts, walletOwner.address)
const allowlist = [...freshPartners.map((account) => account.address), approver.address, contractWallet]

const stack = await startOnboardingStack({ deployment, allowlist, redis })
t.teardown(async () => {
  await stack.stop()
  one.close()
  sepolia.close()
  await redis.quit()
  await redisServer.dispose()
  await devnet.stop()
})

let partnersTaken = 0
const freshPartner = (): PrivateKeyAccount => freshPartners[partnersTaken++]!
// Loopback is a trusted proxy: each test is its own client, with its own rate-limit budget.
let clientsTaken = 0
const clientIp = () => `198.51.100.${++clientsTaken}`

const getOnboarding = (baseUrl: string, id: string) =>
  fetch(`${baseUrl}/v1/onboard/${id}`, { headers: { 'x-forwarded-for': clientIp(), connection: 'close' } })

const bothParts = async (partner: PrivateKeyAccount, overrides: Partial<Parameters<typeof signOnboarding>[0]> = {}) => {
  const soon = await chainTimePlus(one.publicClient, 30 * 60)
  return signOnboarding({
    chain: one.chain,
    client: one.publicClient,
    signer: partner,
    delegation: { expiry: soon },
    permit: { value: HUNDRED_USDC, deadline: soon },
    ...overrides,
  })
}

const readNonces = async (partner: Address) => ({
  delegation: await one.publicClient.readContract({
    address: one.chain.contracts.trading,
    abi: tradingAbi,
    functionName: 'delegatableNonces',
    args: [partner],
  }),
  permit: await one.publicClient.readContract({
    address: one.chain.contracts.usdc,
    abi: permitUsdcAbi,
    functionName: 'nonces',
    args: [partner],
  }),
})

t.test('42161: permit and delegation are relayed as one user operation and confirmed', async (t) => {
  const partner = freshPartner()
  const body = await bothParts(partner)
  const fromBlock = await one.publicClient.getBlockNumber()

  const response = await post(stack.baseUrl, body, clientIp())

  t.equal(response.status, 200)
  const answer = await readJson(response)
  t.same(Object.keys(answer).sort(), ['state', 'status', 'transactionHash', 'userOpHash'])
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, { onboarded: true, missing: [], delegate: one.chain.contracts.wrapper, allowance: HUNDRED_USDC.toString() })
  const events = await one.onboardingOperationsAfter(relayerAccount, fromBlock)
  t.equal(events.length, 1, 'one user operation')
  t.equal(events[0]!.args.userOpHash, answer.userOpHash)
  t.equal(events[0]!.transactionHash, answer.transactionHash)
  t.equal(events[0]!.args.success, true)
  t.same(await readNonces(partner.address), { delegation: 1n, permit: 1n }, 'both signatures used')
})

t.test('421614: the partner approves from its wallet, then only the delegation is relayed', async (t) => {
  const wallet = sepolia.wallet(anvilAccount(firstFreeAccountIndex).privateKey)
  const approval = await wallet.writeContract({
    address: sepolia.chain.contracts.usdc,
    abi: permitUsdcAbi,
    functionName: 'approve',
    args: [sepolia.chain.contracts.tradingStorage, HUNDRED_USDC],
  })
  await wallet.waitForTransactionReceipt({ hash: approval })
  const body = await signOnboarding({
    chain: sepolia.chain,
    client: sepolia.publicClient,
    signer: approver,
    delegation: { expiry: await chainTimePlus(sepolia.publicClient, 30 * 60) },
  })

  const response = await post(stack.baseUrl, body, clientIp())

  t.equal(response.status, 200)
  const answer = await readJson(response)
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, { onboarded: true, missing: [], delegate: sepolia.chain.contracts.wrapper, allowance: HUNDRED_USDC.toString() })
})

t.test('42161: a contract wallet delegates itself, and its permit is accepted by ERC-1271', async (t) => {
  const owner = one.wallet(walletOwnerKey)
  const setDelegate = await owner.writeContract({
    address: contractWallet,
    abi: contractWalletAbi,
    functionName: 'execute',
    args: [
      one.chain.contracts.trading,
      0n,
      encodeFunctionData({ abi: tradingAbi, functionName: 'setDelegate', args: [one.chain.contracts.wrapper] }),
    ],
  })
  await owner.waitForTransactionReceipt({ hash: setDelegate })
  const soon = await chainTimePlus(one.publicClient, 30 * 60)
  const permitFor = (signer: PrivateKeyAccount) =>
    signOnboarding({
      chain: one.chain,
      client: one.publicClient,
      signer,
      partner: contractWallet,
      permit: { value: HUNDRED_USDC, deadline: soon },
    })
  const permitOnly = await permitFor(walletOwner)

  const refused = await post(stack.baseUrl, await permitFor(privateKeyToAccount(generatePrivateKey())), clientIp())
  t.equal(refused.status, 401, 'a signature the wallet does not accept')

  const response = await post(stack.baseUrl, permitOnly, clientIp())

  t.equal(response.status, 200)
  const answer = await readJson(response)
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, { onboarded: true, missing: [], delegate: one.chain.contracts.wrapper, allowance: HUNDRED_USDC.toString() })
})

t.test('a batch that reverts on chain applies neither part, and the answer says which call failed', async (t) => {
  const partner = freshPartner()
  const expiry = await chainTimePlus(one.publicClient, 60)
  const body = await bothParts(partner, { delegation: { expiry }, permit: { value: HUNDRED_USDC, deadline: expiry + 3600n } })
  const fromBlock = await one.publicClient.getBlockNumber()
  // Blocks wait for the test: the operation passes simulation now and is mined after its delegation expired.
  await one.anvil.setAutomine(false)
  t.teardown(() => one.anvil.setAutomine(true))

  const answering = post(stack.baseUrl, body, clientIp())
  await waitFor(async () => (await one.anvil.getTxpoolStatus()).pending > 0, { timeoutMs: 15_000, what: 'the bundle transaction' })
  await one.anvil.setNextBlockTimestamp({ timestamp: expiry + 1n })
  await one.anvil.mine({ blocks: 1 })
  await one.anvil.setAutomine(true)
  const response = await answering

  t.equal(response.status, 200)
  const answer = await readJson(response)
  t.equal(answer.status, 'reverted')
  t.equal(answer.reason, 'delegation (Trading.setDelegateWithSignature) reverted: SignatureExpired()')
  t.same(answer.state, { onboarded: false, missing: ['delegation', 'allowance'], delegate: zeroAddress, allowance: '0' })
  const events = await one.onboardingOperationsAfter(relayerAccount, fromBlock)
  t.equal(events.length, 1)
  t.equal(events[0]!.args.success, false, 'the operation landed and reverted')
  t.equal(events[0]!.transactionHash, answer.transactionHash)
  t.same(await readNonces(partner.address), { delegation: 0n, permit: 0n }, 'the permit was not applied either')
})

t.test('an expired signature can never succeed: 400 with the decoded reason, and nothing is sent', async (t) => {
  const partner = freshPartner()
  const past = (await chainTimePlus(one.publicClient, 0)) - 1n
  const body = await bothParts(partner, { delegation: { expiry: past + 3600n }, permit: { value: HUNDRED_USDC, deadline: past } })
  const fromBlock = await one.publicClient.getBlockNumber()

  const response = await post(stack.baseUrl, body, clientIp())

  t.equal(response.status, 400)
  const reason = 'permit (USDC.permit) reverted: "FiatTokenV2: permit is expired"'
  t.same(await readJson(response), {
    error: 'Bad Request',
    message: `the onboarding cannot succeed as signed, so it was not sent: ${reason}`,
    issues: [{ code: 'custom', path: ['permit'], message: reason }],
    details: { reason, part: 'permit', error: 'Error', args: ['FiatTokenV2: permit is expired'] },
  })
  t.same(await one.onboardingOperationsAfter(relayerAccount, fromBlock), [], 'no user operation')
})

t.test("a delegation signed at another nonce than Trading's can never succeed: 400 with the decoded reason", async (t) => {
  const partner = freshPartner()
  const body = await bothParts(partner, { delegation: { expiry: await chainTimePlus(one.publicClient, 1800), nonce: 1n } })

  const response = await post(stack.baseUrl, body, clientIp())

  t.equal(response.status, 400)
  const reason = 'delegation (Trading.setDelegateWithSignature) reverted: InvalidNonce()'
  const expected = {
    error: 'Bad Request',
    message: `the onboarding cannot succeed as signed, so it was not sent: ${reason}`,
    issues: [{ code: 'custom', path: ['delegation'], message: reason }],
    details: { reason, part: 'delegation', error: 'InvalidNonce', args: [] },
  }
  t.same(await readJson(response), expected)
  const polled = await getOnboarding(stack.baseUrl, onboardingJobId(body))
  t.equal(polled.status, 400, 'GET /v1/onboard/{id} gives the same answer')
  t.same(await readJson(polled), expected)
})

t.test('a delegation to anything but the wrapper is a 400', async (t) => {
  const partner = freshPartner()
  const body = await bothParts(partner, {
    delegation: { expiry: await chainTimePlus(one.publicClient, 1800), delegate: one.chain.contracts.trading },
  })
  const response = await post(stack.baseUrl, body, clientIp())
  t.equal(response.status, 400)
  t.same(await readJson(response), {
    error: 'Bad Request',
    message: 'invalid onboarding request',
    issues: [
      {
        code: 'custom',
        path: ['delegation', 'delegate'],
        message: `must be the wrapper contract of chain 42161, ${one.chain.contracts.wrapper}`,
      },
    ],
  })
})

t.test('a partner that is not allowlisted gets 403', async (t) => {
  const stranger = privateKeyToAccount(generatePrivateKey())
  const response = await post(stack.baseUrl, await bothParts(stranger), clientIp())
  t.equal(response.status, 403)
  t.same(await readJson(response), {
    error: 'Forbidden',
    message: 'partner is not an allowlisted partner',
    details: { partner: stranger.address },
  })
})

t.test("signatures from another key than partner's get 401", async (t) => {
  const partner = freshPartner()
  const impostor = privateKeyToAccount(generatePrivateKey())
  const soon = await chainTimePlus(one.publicClient, 1800)
  const common = { chain: one.chain, client: one.publicClient, signer: impostor, partner: partner.address }
  const forgedDelegation = await signOnboarding({ ...common, delegation: { expiry: soon } })
  const forgedPermit = await signOnboarding({ ...common, permit: { value: HUNDRED_USDC, deadline: soon } })

  const delegationAnswer = await post(stack.baseUrl, forgedDelegation, clientIp())
  t.equal(delegationAnswer.status, 401)
  t.same(await readJson(delegationAnswer), {
    error: 'Unauthorized',
    message: 'the delegation was not signed by partner (an externally owned account)',
    details: { part: 'delegation' },
  })
  const permitAnswer = await post(stack.baseUrl, forgedPermit, clientIp())
  t.equal(permitAnswer.status, 401)
  t.same(await readJson(permitAnswer), {
    error: 'Unauthorized',
    message: "the permit was not signed by partner, nor accepted by partner's ERC-1271 wallet",
    details: { part: 'permit' },
  })
})

t.test('malformed bodies get 400 with the validation issues', async (t) => {
  const valid = await bothParts(freshPartner())
  const cases: Array<[string, unknown, Array<{ code: string; path: Array<string | number> }>]> = [
    ['not JSON', '{"chainId":', [{ code: 'custom', path: [] }]],
    [
      'a 256-bit value as a JSON number',
      { ...valid, permit: { ...valid.permit, value: 100 } },
      [{ code: 'invalid_type', path: ['permit', 'value'] }],
    ],
    ['neither part', { chainId: 42161, partner: valid.partner }, [{ code: 'custom', path: ['delegation'] }]],
    ['a permit on 421614', { ...valid, chainId: 421614 }, [{ code: 'custom', path: ['permit'] }]],
    ['an unknown chain', { ...valid, chainId: 1 }, [{ code: 'invalid_union', path: ['chainId'] }]],
    ['an unknown field', { ...valid, referrer: 'x' }, [{ code: 'unrecognized_keys', path: [] }]],
    [
      'a short delegation signature',
      { ...valid, delegation: { ...valid.delegation, signature: '0x1234' } },
      [{ code: 'invalid_format', path: ['delegation', 'signature'] }],
    ],
    ['a partner that is no address', { ...valid, partner: '0x1234' }, [{ code: 'invalid_format', path: ['partner'] }]],
  ]
  const ip = clientIp()
  for (const [name, body, expected] of cases) {
    const response = await post(stack.baseUrl, body, ip)
    t.equal(response.status, 400, name)
    const answer = await readJson(response)
    t.equal(answer.message, 'invalid onboarding request', name)
    t.same(
      answer.issues.map((issue: { code: string; path: unknown[] }) => ({ code: issue.code, path: issue.path })),
      expected,
      name,
    )
  }
})

t.test('a body over the limit gets 413', async (t) => {
  const valid = await bothParts(freshPartner())
  const response = await post(stack.baseUrl, { ...valid, padding: 'x'.repeat(70_000) }, clientIp())
  t.equal(response.status, 413)
  t.same(await readJson(response), {
    error: 'Payload Too Large',
    message: 'request body is larger than 65536 bytes',
    details: { limitBytes: 65536 },
  })
})

t.test('the eleventh request within 10 s from one IP gets 429 with the rate-limit headers', async (t) => {
  const ip = clientIp()
  for (let sent = 1; sent <= 10; sent++) {
    const response = await post(stack.baseUrl, '{}', ip)
    t.equal(response.status, 400)
    t.equal(response.headers.get('x-ratelimit-limit'), '10')
    t.equal(response.headers.get('x-ratelimit-remaining'), String(10 - sent))
  }
  const refused = await post(stack.baseUrl, '{}', ip)
  t.equal(refused.status, 429)
  const retryAfter = Number(refused.headers.get('retry-after'))
  t.ok(retryAfter >= 1 && retryAfter <= 10, 'retry-after in seconds')
  t.equal(refused.headers.get('x-ratelimit-limit'), '10')
  t.equal(refused.headers.get('x-ratelimit-remaining'), '0')
  t.equal(refused.headers.get('x-ratelimit-reset'), String(retryAfter))
  t.same(await readJson(refused), {
    error: 'Too Many Requests',
    message: `rate limit exceeded: retry in ${retryAfter} seconds`,
    details: { budget: 'onboard', retryAfterSeconds: retryAfter },
  })
})

t.test('the same request posted twice to each of two replicas is one job and one user operation', async (t) => {
  const replica = await startOnboardingStack({ deployment, allowlist, redis, namespace: stack.namespace, relayer: false })
  t.teardown(() => replica.stop())
  const body = await bothParts(freshPartner())
  const fromBlock = await one.publicClient.getBlockNumber()

  const responses = await Promise.all(
    [stack.baseUrl, replica.baseUrl, stack.baseUrl, replica.baseUrl].map((url) => post(url, body, clientIp())),
  )

  t.same(
    responses.map((response) => response.status),
    [200, 200, 200, 200],
  )
  const [first, ...others] = await Promise.all(responses.map(readJson))
  t.equal(first.status, 'confirmed')
  for (const other of others) t.same(other, first, 'the same outcome for every caller')
  const events = await one.onboardingOperationsAfter(relayerAccount, fromBlock)
  t.same(
    events.map((event) => event.args.userOpHash),
    [first.userOpHash],
    'one user operation',
  )
  t.equal((await stack.queue.counts()).active, 0)
})

t.test('past the deadline the answer is 202 with where to poll; GET gives the outcome once there', async (t) => {
  // The embedded queue, and no relayer yet: the job cannot finish before the deadline.
  const slow = await startOnboardingStack({ deployment, allowlist, deadlineMs: 200, relayer: false })
  t.teardown(() => slow.stop())
  const body = await bothParts(freshPartner())
  const id = onboardingJobId(body)

  const pending = await post(slow.baseUrl, body, clientIp())
  t.equal(pending.status, 202)
  t.equal(pending.headers.get('location'), `/v1/onboard/${id}`)
  t.equal(pending.headers.get('retry-after'), '2')
  t.same(await readJson(pending), { status: 'pending', id })
  const polled = await getOnboarding(slow.baseUrl, id)
  t.equal(polled.status, 202)
  t.same(await readJson(polled), { status: 'pending', id })

  slow.startRelayer()
  t.equal((await slow.queue.waitUntilFinished(id, 20_000))?.state, 'completed')
  const done = await getOnboarding(slow.baseUrl, id)
  t.equal(done.status, 200)
  const answer = await readJson(done)
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, { onboarded: true, missing: [], delegate: one.chain.contracts.wrapper, allowance: HUNDRED_USDC.toString() })
  const repost = await post(slow.baseUrl, body, clientIp())
  t.same(await readJson(repost), answer, 'posting it again gives the same outcome')

  const unknown = `0x${'0'.repeat(64)}`
  const missing = await getOnboarding(slow.baseUrl, unknown)
  t.equal(missing.status, 404)
  t.same(await readJson(missing), {
    error: 'Not Found',
    message: 'no such onboarding (outcomes are kept for a day)',
    details: { id: unknown },
  })
  const malformed = await getOnboarding(slow.baseUrl, '42')
  t.equal(malformed.status, 400)
})

t.test('when the state cannot be read back, the outcome stands without it', async (t) => {
  const trading = one.chain.contracts.trading.toLowerCase()
  const readDelegate = toFunctionSelector('delegations(address)')
  const proxy = await startJsonRpcProxy(one.chain.rpcUrl, ({ method, params }) => {
    const call = params?.[0] as { to?: string; data?: string } | undefined
    return method === 'eth_call' && call?.to?.toLowerCase() === trading && call.data?.startsWith(readDelegate) === true
  })
  const faulty = await startOnboardingStack({
    deployment,
    allowlist,
    redis,
    adjustChain: (chain) => (chain.chainId === 42161 ? { ...chain, rpcUrl: proxy.url } : chain),
  })
  t.teardown(async () => {
    await faulty.stop()
    await proxy.close()
  })
  const partner = freshPartner()

  const response = await post(faulty.baseUrl, await bothParts(partner), clientIp())

  t.equal(response.status, 200)
  const answer = await readJson(response)
  t.same(Object.keys(answer).sort(), ['status', 'transactionHash', 'userOpHash'])
  t.equal(answer.status, 'confirmed')
  t.same(await readNonces(partner.address), { delegation: 1n, permit: 1n }, 'both parts applied all the same')
})

t.test('the demo script signs and posts an onboarding for the demo partner', async (t) => {
  const file = join(t.testdir(), 'deployment.json')
  await writeDeployment(devnet, file)
  const child = spawn(process.execPath, [...nodeArgumentsFor(join(ROOT, 'scripts/demo-onboard.ts')), stack.baseUrl, file], { cwd: ROOT })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await withDeadline(new Promise((resolve) => child.once('exit', resolve)), 30_000, 'the demo script')
  t.equal(code, 0, output)
  t.match(output, /POST \/v1\/onboard → 200/)
  const answer = JSON.parse(output.slice(output.indexOf('{')))
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, { onboarded: true, missing: [], delegate: one.chain.contracts.wrapper, allowance: (2n ** 256n - 1n).toString() })
})
