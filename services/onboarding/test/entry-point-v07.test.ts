import t from 'tap'
import { parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevnet, toDeployment } from '../../../deploy/devnet/devnet.ts'
import { devnetChain } from '../../../test/support/devnet-chain.ts'
import { postOnboarding, readJson } from '../../../test/support/http.ts'
import { startOnboardingStack } from '../../../test/support/onboarding-stack.ts'
import { CANONICAL_ENTRY_POINTS } from '../../venue-contracts/entry-points.ts'
import { chainTimePlus, signOnboarding } from '../../../loadtest/partner-signer.ts'

// A development chain with EntryPoint v0.7 and SimpleAccountFactory v0.7 at their canonical addresses, bundled by
// alto: the relayer's SimpleAccount is the v0.7 one, chosen by configuration. The chain is the file's own: the
// run's shared chain has EntryPoint v0.8, and its bundler serves that one only.

const HUNDRED_USDC = parseUnits('100', 6)
const devnet = await startDevnet({ chainIds: [42161], entryPointVersion: '0.7' })
const deployment = toDeployment(devnet)
const one = devnetChain(devnet.chain(42161))
const partners = [privateKeyToAccount(generatePrivateKey()), privateKeyToAccount(generatePrivateKey())]
const allowlist = partners.map((partner) => partner.address)
const stack = await startOnboardingStack({ deployment, allowlist })
t.teardown(async () => {
  await stack.stop()
  one.close()
  await devnet.stop()
})

const post = (body: unknown, ip: string) => postOnboarding(stack.baseUrl, body, ip)

t.test('the chain runs EntryPoint v0.7, and the service is configured for it', async (t) => {
  const chain = stack.config.chains[0]!
  t.same(
    [chain.entryPointVersion, chain.entryPoint, chain.accountFactory],
    ['0.7', CANONICAL_ENTRY_POINTS['0.7'].entryPoint, CANONICAL_ENTRY_POINTS['0.7'].simpleAccountFactory],
  )
  const v08Code = await one.publicClient.getCode({ address: CANONICAL_ENTRY_POINTS['0.8'].entryPoint })
  t.notOk(v08Code, 'no EntryPoint v0.8 on this chain')
})

t.test('an onboarding is relayed as one v0.7 user operation and confirmed', async (t) => {
  const fromBlock = await one.publicClient.getBlockNumber()
  const body = await one.signBothParts(partners[0]!, HUNDRED_USDC)
  const response = await post(body, '198.51.100.1')
  t.equal(response.status, 200)
  const answer = await readJson(response)
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, { onboarded: true, missing: [], delegate: one.chain.contracts.wrapper, allowance: HUNDRED_USDC.toString() })
  const events = await one.onboardingOperationsAfter(deployment.relayer.smartAccountAddress, fromBlock)
  t.same(
    events.map((event) => [event.address.toLowerCase(), event.args.userOpHash, event.args.success]),
    [[CANONICAL_ENTRY_POINTS['0.7'].entryPoint.toLowerCase(), answer.userOpHash, true]],
    'one operation, through EntryPoint v0.7',
  )
})

t.test("SimpleAccount v0.7 does not wrap a batch call's revert; the reason still names the part", async (t) => {
  const soon = await chainTimePlus(one.publicClient, 30 * 60)
  const body = await signOnboarding({
    chain: one.chain,
    client: one.publicClient,
    signer: partners[1]!,
    delegation: { expiry: soon, nonce: 5n },
    permit: { value: HUNDRED_USDC, deadline: soon },
  })
  const response = await post(body, '198.51.100.2')
  t.equal(response.status, 400)
  const reason = 'delegation (Trading.setDelegateWithSignature) reverted: InvalidNonce()'
  t.same((await readJson(response)).details, { reason, part: 'delegation', error: 'InvalidNonce', args: [] })
})

t.test('the v0.8 account factory on a v0.7 chain stops the start: it has no code there', async (t) => {
  const factory = CANONICAL_ENTRY_POINTS['0.8'].simpleAccountFactory
  await t.rejects(
    startOnboardingStack({ deployment, allowlist, relayer: false, adjustChain: (chain) => ({ ...chain, accountFactory: factory }) }),
    {
      code: 'config_invalid',
      message: `invalid configuration for chain 42161: CHAIN_42161_ACCOUNT_FACTORY: no contract at ${factory} on chain 42161`,
    },
  )
})
