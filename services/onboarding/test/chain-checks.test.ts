import t from 'tap'
import { pino } from 'pino'
import { parseUnits, toFunctionSelector, zeroAddress, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { toDeployment } from '../../../deploy/devnet/devnet.ts'
import { deployLegacyTrading, deployPlainUsdc } from '../../../deploy/devnet/venue-contracts.ts'
import { devnetChain } from '../../../test/support/devnet-chain.ts'
import { postOnboarding, readJson } from '../../../test/support/http.ts'
import { startJsonRpcProxy } from '../../../test/support/json-rpc-proxy.ts'
import { startOnboardingStack } from '../../../test/support/onboarding-stack.ts'
import { waitFor } from '../../../test/support/wait.ts'
import { SPEC_DELEGATION_DOMAIN, type DelegationDomain } from '../../venue-contracts/deployment-record.ts'
import type { ChainConfig } from '../chain/chain-config.ts'
import { chainTimePlus, signOnboarding } from '../../../loadtest/partner-signer.ts'
import { onboardingJobId } from '../relay-job.ts'
import { devnetForFile } from '../../../test/support/shared-devnet.ts'

// The venue's contracts deployed for this file on the development chain, with Trading taking a deployment's own
// names, as the venue's published Delegatable signs: domain { name: "Ostium", version: "1" } and type
// Delegation(...). The service is configured with them, checks them against Trading at start, and refuses what
// the chain's contracts cannot do.

const OWN_NAMES: DelegationDomain = { name: 'Ostium', version: '1', typeName: 'Delegation' }
const HUNDRED_USDC = parseUnits('100', 6)

const devnet = await devnetForFile(import.meta.url, { chainIds: [42161], delegationDomain: OWN_NAMES })
const deployment = toDeployment(devnet)
const one = devnetChain(devnet.chain(42161))
const deployer = one.wallet((await devnet.account('deployer')).privateKey)
t.teardown(async () => {
  one.close()
  await devnet.stop()
})

const partners = Array.from({ length: 5 }, () => privateKeyToAccount(generatePrivateKey()))
const allowlist = partners.map((partner) => partner.address)
let clientsTaken = 0

const post = (baseUrl: string, body: unknown) => postOnboarding(baseUrl, body, `198.51.100.${++clientsTaken}`)

const withChain = (change: Partial<ChainConfig>) => (chain: ChainConfig) => ({ ...chain, ...change })

function capturedLogger() {
  const lines: Array<Record<string, unknown>> = []
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) })
  return { logger, lines }
}

t.test("a deployment's own names: the partner signs with them, the intake checks them, Trading accepts them", async (t) => {
  const stack = await startOnboardingStack({ deployment, allowlist })
  t.teardown(() => stack.stop())
  t.same(stack.config.chains[0]!.delegationDomain, OWN_NAMES, 'configured from the deployment record')
  const [partner] = partners
  const soon = await chainTimePlus(one.publicClient, 30 * 60)
  const sign = (domain?: DelegationDomain) =>
    signOnboarding({
      chain: one.chain,
      client: one.publicClient,
      signer: partner!,
      delegation: { expiry: soon, ...(domain && { domain }) },
      permit: { value: HUNDRED_USDC, deadline: soon },
    })

  const specNames = await post(stack.baseUrl, await sign(SPEC_DELEGATION_DOMAIN))
  t.equal(specNames.status, 401, "signed under the spec's names, which this Trading does not check")
  t.same(await readJson(specNames), {
    error: 'Unauthorized',
    message: 'the delegation was not signed by partner (an externally owned account)',
    details: { part: 'delegation' },
  })

  const response = await post(stack.baseUrl, await sign())
  t.equal(response.status, 200)
  const answer = await readJson(response)
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, { onboarded: true, missing: [], delegate: one.chain.contracts.wrapper, allowance: HUNDRED_USDC.toString() })
})

t.test('names that are not the ones Trading was deployed with stop the start, naming the setting', async (t) => {
  await t.rejects(
    startOnboardingStack({ deployment, allowlist, relayer: false, adjustChain: withChain({ delegationDomain: SPEC_DELEGATION_DOMAIN }) }),
    {
      code: 'config_invalid',
      message:
        'invalid configuration for chain 42161: CHAIN_42161_DELEGATION_NAME, CHAIN_42161_DELEGATION_VERSION: Trading\'s DOMAIN_SEPARATOR() is not that of { name: "Venue", version: "1" }: set the names Trading was deployed with',
    },
  )
  await t.rejects(
    startOnboardingStack({
      deployment,
      allowlist,
      relayer: false,
      adjustChain: withChain({ delegationDomain: { ...OWN_NAMES, typeName: 'VenueDelegation' } }),
    }),
    {
      code: 'config_invalid',
      message:
        "invalid configuration for chain 42161: CHAIN_42161_DELEGATION_TYPE: Trading's DELEGATION_TYPEHASH() is not that of VenueDelegation(address delegator,address delegate,uint256 nonce,uint256 expiry)",
    },
  )
})

t.test('a contract, the EntryPoint or the account factory without code stops the start, naming the setting', async (t) => {
  const nowhere: Address = '0x000000000000000000000000000000000000dEaD'
  const cases: Array<[string, Partial<ChainConfig>]> = [
    ['CHAIN_42161_WRAPPER', { contracts: { ...one.chain.contracts, wrapper: nowhere } }],
    ['CHAIN_42161_TRADING', { contracts: { ...one.chain.contracts, trading: nowhere } }],
    ['CHAIN_42161_ENTRY_POINT', { entryPoint: nowhere }],
    ['CHAIN_42161_ACCOUNT_FACTORY', { accountFactory: nowhere }],
  ]
  for (const [setting, change] of cases) {
    await t.rejects(startOnboardingStack({ deployment, allowlist, relayer: false, adjustChain: withChain(change) }), {
      code: 'config_invalid',
      message: `invalid configuration for chain 42161: ${setting}: no contract at ${nowhere} on chain 42161`,
    })
  }
})

t.test('a node unreachable at start: the start goes on, its onboardings answer 500 until the retried check reaches it', async (t) => {
  let down = true
  const node = await startJsonRpcProxy(one.chain.rpcUrl, () => down)
  const { logger, lines } = capturedLogger()
  const stack = await startOnboardingStack({
    deployment,
    allowlist,
    logger,
    relayer: false,
    deadlineMs: 200,
    adjustChain: withChain({ rpcUrl: node.url }),
  })
  t.teardown(async () => {
    await stack.stop()
    await node.close()
  })
  const startError = lines.find((line) => line.msg === 'onboarding: the chain could not be checked; its onboardings answer 500 until it is')
  t.same([startError?.level, startError?.retryInMs], [50, 1000], 'one error line at start, and a retry in a second')
  t.match(startError?.reason, /^chain 42161: the node could not be reached to check the contracts \(/)

  const soon = await chainTimePlus(one.publicClient, 30 * 60)
  const body = await signOnboarding({ chain: one.chain, client: one.publicClient, signer: partners[4]!, delegation: { expiry: soon } })
  const refused = await post(stack.baseUrl, body)
  t.equal(refused.status, 500)
  t.match((await readJson(refused)).message, /^onboarding on chain 42161 is not available yet: chain 42161: the node could not be reached/)

  down = false
  await waitFor(() => lines.some((line) => line.msg === 'onboarding chain checked'), { timeoutMs: 10_000, what: 'the retried check' })
  const accepted = await post(stack.baseUrl, body)
  t.equal(accepted.status, 202, 'taken (no relayer runs here, so it waits past the deadline)')
})

t.test('a node unreachable at start is not named in any line', async (t) => {
  const rpcUrl = 'http://user:secret@127.0.0.1:1/key-in-path'
  const { logger, lines } = capturedLogger()
  const stack = await startOnboardingStack({ deployment, allowlist, logger, relayer: false, adjustChain: withChain({ rpcUrl }) })
  t.teardown(() => stack.stop())
  t.ok(lines.length > 0)
  t.notMatch(JSON.stringify(lines), /secret|key-in-path/)
})

t.test('a Trading without signature delegation: delegations are refused from the start, permits still relayed', async (t) => {
  const legacyTrading = await deployLegacyTrading(deployer, devnet.compiledContracts)
  const { logger, lines } = capturedLogger()
  const stack = await startOnboardingStack({
    deployment,
    allowlist,
    logger,
    adjustChain: withChain({ contracts: { ...one.chain.contracts, trading: legacyTrading } }),
  })
  t.teardown(() => stack.stop())
  const refusal = `Trading ${legacyTrading} does not answer delegatableNonces(address): this version has no signature delegation (the wallet calls Trading.setDelegate(${one.chain.contracts.wrapper}) itself and posts only permit)`
  const startError = lines.find((line) => line.msg === 'onboarding: delegations are refused on this chain')
  t.same([startError?.level, startError?.chainId, startError?.reason], [50, 42161, refusal], 'one error line at start says why')

  const partner = partners[1]!
  const soon = await chainTimePlus(one.publicClient, 30 * 60)
  const chain = { ...one.chain, contracts: { ...one.chain.contracts, trading: legacyTrading } }
  const withDelegation = await signOnboarding({ chain, client: one.publicClient, signer: partner, delegation: { expiry: soon, nonce: 0n } })
  const refused = await post(stack.baseUrl, withDelegation)
  t.equal(refused.status, 400)
  t.same(await readJson(refused), {
    error: 'Bad Request',
    message: 'invalid onboarding request',
    issues: [{ code: 'custom', path: ['delegation'], message: `not relayed on chain 42161: ${refusal}` }],
  })

  const permitOnly = await signOnboarding({
    chain,
    client: one.publicClient,
    signer: partner,
    permit: { value: HUNDRED_USDC, deadline: soon },
  })
  const response = await post(stack.baseUrl, permitOnly)
  t.equal(response.status, 200)
  const answer = await readJson(response)
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, { onboarded: false, missing: ['delegation'], delegate: zeroAddress, allowance: HUNDRED_USDC.toString() })
})

t.test('a USDC without permit on a chain that allows one: permits are refused from the start', async (t) => {
  const plainUsdc = await deployPlainUsdc(deployer, devnet.compiledContracts)
  const stack = await startOnboardingStack({
    deployment,
    allowlist,
    relayer: false,
    adjustChain: withChain({ contracts: { ...one.chain.contracts, usdc: plainUsdc }, permitDomain: { name: 'USD Coin', version: '2' } }),
  })
  t.teardown(() => stack.stop())
  const soon = await chainTimePlus(one.publicClient, 30 * 60)
  const chain = { ...one.chain, contracts: { ...one.chain.contracts, usdc: plainUsdc } }
  const body = await signOnboarding({
    chain,
    client: one.publicClient,
    signer: partners[2]!,
    permit: { value: HUNDRED_USDC, deadline: soon, nonce: 0n, domain: { name: 'USD Coin', version: '2' } },
  })
  const refused = await post(stack.baseUrl, body)
  t.equal(refused.status, 400)
  t.same((await readJson(refused)).issues, [
    {
      code: 'custom',
      path: ['permit'],
      message: `not relayed on chain 42161: USDC ${plainUsdc} does not answer nonces(address): it has no ERC-2612 permit (the wallet approves TradingStorage itself and posts only delegation)`,
    },
  ])
})

t.test('a node that fails the permit check is a 500 (the spec lists no 502 for onboarding), and nothing is queued', async (t) => {
  const usdc = one.chain.contracts.usdc.toLowerCase()
  const readName = toFunctionSelector('name()')
  const node = await startJsonRpcProxy(one.chain.rpcUrl, ({ method, params }) => {
    const call = params?.[0] as { to?: string; data?: string } | undefined
    return method === 'eth_call' && call?.to?.toLowerCase() === usdc && call.data?.startsWith(readName) === true
  })
  const stack = await startOnboardingStack({ deployment, allowlist, relayer: false, adjustChain: withChain({ rpcUrl: node.url }) })
  t.teardown(async () => {
    await stack.stop()
    await node.close()
  })
  const soon = await chainTimePlus(one.publicClient, 30 * 60)
  const body = await signOnboarding({
    chain: one.chain,
    client: one.publicClient,
    signer: partners[3]!,
    permit: { value: HUNDRED_USDC, deadline: soon, domain: { name: 'USD Coin', version: '2' } },
  })
  const response = await post(stack.baseUrl, body)
  t.equal(response.status, 500)
  t.same(await readJson(response), {
    error: 'Internal Server Error',
    message: 'the chain could not be reached to check the permit signature (read the token permit domain); retry shortly',
  })
  t.equal(await stack.queue.get(onboardingJobId(body)), undefined, 'not queued')
})
