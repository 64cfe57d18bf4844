// The sponsorship policy on a development chain: each ceiling refuses before anything is sent, shown by the
// chain's own accounting (the relayer account's ETH and EntryPoint deposit, and the EntryPoint's
// UserOperationEvents), and the day's gas the policy counts is what the EntryPoint says the operations used.
import t, { type Test } from 'tap'
import { parseAbiItem, parseUnits, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { toDeployment } from '../../../deploy/devnet/devnet.ts'
import { devnetChain } from '../../../test/support/devnet-chain.ts'
import { postOnboarding as post, readJson } from '../../../test/support/http.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { startOnboardingStack } from '../../../test/support/onboarding-stack.ts'
import { devnetForFile } from '../../../test/support/shared-devnet.ts'
import { signOnboarding, chainTimePlus } from '../../../loadtest/partner-signer.ts'
import { utcDay } from '../sponsorship-ledger.ts'

const HUNDRED_USDC = parseUnits('100', 6)
const GAS_PER_OPERATION = 2_000_000
const devnet = await devnetForFile(import.meta.url, { chainIds: [42161] })
const deployment = toDeployment(devnet)
const one = devnetChain(devnet.chain(42161))
const partners: PrivateKeyAccount[] = Array.from({ length: 5 }, () => privateKeyToAccount(generatePrivateKey()))
const allowlist = partners.map((partner) => partner.address)
const relayerAccount = deployment.relayer.smartAccountAddress
t.teardown(async () => {
  one.close()
  await devnet.stop()
})

const depositOf = parseAbiItem('function balanceOf(address account) view returns (uint256)')
/** What the relayer's account can pay with: its ETH and its deposit in the EntryPoint. */
const funds = async (account: Address) => ({
  eth: await one.publicClient.getBalance({ address: account }),
  deposit: await one.publicClient.readContract({
    address: one.chain.entryPoint,
    abi: [depositOf],
    functionName: 'balanceOf',
    args: [account],
  }),
})
const bothParts = (partner: PrivateKeyAccount) => one.signBothParts(partner, HUNDRED_USDC)
const stackWith = async (t: Test, env: Record<string, string>) => {
  const stack = await startOnboardingStack({ deployment, allowlist, env })
  t.teardown(() => stack.stop())
  return stack
}
const refusals = (stack: Awaited<ReturnType<typeof stackWith>>, reason: string) =>
  metricValue(stack.metrics.sponsorshipRefusals, { chain: '42161', reason })

t.test("the day's gas: counted from what the EntryPoint says each operation used; past the ceiling, 429 and nothing sent", async (t) => {
  // room for one operation's hold: once one operation has used any gas, the next hold does not fit
  const gas = String(GAS_PER_OPERATION)
  const stack = await stackWith(t, { SPONSOR_GAS_PER_OPERATION: gas, SPONSOR_DAILY_GAS: gas })
  const fromBlock = await one.publicClient.getBlockNumber()
  const first = await post(stack.baseUrl, await bothParts(partners[0]!), '198.51.100.1')
  t.equal(first.status, 200)
  t.equal((await readJson(first)).status, 'confirmed')
  const events = await one.onboardingOperationsAfter(relayerAccount, fromBlock)
  t.equal(events.length, 1)

  const before = { funds: await funds(relayerAccount), block: await one.publicClient.getBlockNumber() }
  const second = await post(stack.baseUrl, await bothParts(partners[1]!), '198.51.100.2')
  t.equal(second.status, 429)
  const retryAfter = Number(second.headers.get('retry-after'))
  t.ok(retryAfter > 0 && retryAfter <= 86_400, `retry-after names the seconds to the next UTC day (${retryAfter})`)
  t.same(await readJson(second), {
    error: 'Too Many Requests',
    message: `sponsorship ceiling reached for today (sponsored gas on this chain): retry in ${retryAfter} seconds`,
    details: { reason: 'daily_gas', retryAfterSeconds: retryAfter },
  })
  t.same(await one.onboardingOperationsAfter(relayerAccount, before.block), [], 'no user operation')
  t.same(await funds(relayerAccount), before.funds, 'not a wei spent')
  t.equal(await refusals(stack, 'daily_gas'), 1)

  // the day holds exactly the EntryPoint's actualGasUsed: one gas less still refuses, none admits again
  const used = Number(events[0]!.args.actualGasUsed)
  const { day } = utcDay()
  await stack.ledger.settle(42161, day, -(used - 1))
  t.match(
    await stack.ledger.admit(42161, partners[1]!.address),
    { admitted: false, refusal: 'daily_gas' },
    `${used - 1} of its ${used} gas given back: 1 still counted`,
  )
  await stack.ledger.settle(42161, day, -1)
  t.same(await stack.ledger.admit(42161, partners[1]!.address), { admitted: true }, 'none left')
})

t.test('a partner whose parts are applied on chain gets its state back: 400, no user operation', async (t) => {
  const stack = await stackWith(t, {})
  const before = { funds: await funds(relayerAccount), block: await one.publicClient.getBlockNumber() }
  const response = await post(stack.baseUrl, await bothParts(partners[0]!), '198.51.100.3')
  t.equal(response.status, 400)
  t.same(await readJson(response), {
    error: 'Bad Request',
    message: 'nothing to relay: every part sent is applied on chain already',
    issues: [
      { code: 'custom', path: ['delegation'], message: 'already applied on chain' },
      { code: 'custom', path: ['permit'], message: 'already applied on chain' },
    ],
    details: {
      reason: 'already_applied',
      state: { onboarded: true, missing: [], delegate: one.chain.contracts.wrapper, allowance: HUNDRED_USDC.toString() },
    },
  })
  t.same(await one.onboardingOperationsAfter(relayerAccount, before.block), [])
  t.same(await funds(relayerAccount), before.funds)
  t.equal(await refusals(stack, 'already_applied'), 1)
})

t.test('an operation estimated above the per-operation ceiling: 403, nothing sent', async (t) => {
  const stack = await stackWith(t, { SPONSOR_GAS_PER_OPERATION: '100000' })
  const before = { funds: await funds(relayerAccount), block: await one.publicClient.getBlockNumber() }
  const response = await post(stack.baseUrl, await bothParts(partners[3]!), '198.51.100.4')
  t.equal(response.status, 403)
  const answer = await readJson(response)
  t.equal(answer.error, 'Forbidden')
  t.match(answer.message, /^the operation would be given \d+ gas, above the 100000 one sponsored operation may be given; nothing was sent$/)
  t.same(answer.details, { reason: 'operation_gas' })
  t.same(await one.onboardingOperationsAfter(relayerAccount, before.block), [])
  t.same(await funds(relayerAccount), before.funds)
  t.equal(await refusals(stack, 'operation_gas'), 1)
  t.same(await stack.ledger.admit(42161, partners[3]!.address), { admitted: true }, 'its hold was given back')
})

t.test("a partner's onboardings per day: past the ceiling, 429 and nothing sent", async (t) => {
  const stack = await stackWith(t, { SPONSOR_PARTNER_ONBOARDINGS_PER_DAY: '1' })
  const partner = partners[4]!
  const soon = await chainTimePlus(one.publicClient, 30 * 60)
  // the permit alone first: the delegation is still missing afterwards
  const permitOnly = await signOnboarding({
    chain: one.chain,
    client: one.publicClient,
    signer: partner,
    permit: { value: HUNDRED_USDC, deadline: soon },
  })
  const first = await post(stack.baseUrl, permitOnly, '198.51.100.5')
  t.equal(first.status, 200)
  t.same((await readJson(first)).state?.missing, ['delegation'])

  const before = { funds: await funds(relayerAccount), block: await one.publicClient.getBlockNumber() }
  const delegationOnly = await signOnboarding({ chain: one.chain, client: one.publicClient, signer: partner, delegation: { expiry: soon } })
  const second = await post(stack.baseUrl, delegationOnly, '198.51.100.5')
  t.equal(second.status, 429)
  const answer = await readJson(second)
  t.same(answer.details, { reason: 'partner_daily_onboardings', retryAfterSeconds: Number(second.headers.get('retry-after')) })
  t.same(await one.onboardingOperationsAfter(relayerAccount, before.block), [])
  t.same(await funds(relayerAccount), before.funds)
  t.equal(await refusals(stack, 'partner_daily_onboardings'), 1)
  // the same signed request again is its job's answer, not a second count
  const again = await post(stack.baseUrl, permitOnly, '198.51.100.5')
  t.equal(again.status, 200)
})
