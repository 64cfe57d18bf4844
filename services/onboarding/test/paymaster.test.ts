import t from 'tap'
import { parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { accountIndexes, anvilAccount } from '../../../deploy/devnet/accounts.ts'
import { toDeployment } from '../../../deploy/devnet/devnet.ts'
import { devnetChain } from '../../../test/support/devnet-chain.ts'
import { postOnboarding as post, readJson } from '../../../test/support/http.ts'
import { startOnboardingStack } from '../../../test/support/onboarding-stack.ts'
import { startPaymasterServer } from '../../../test/support/paymaster-server.ts'
import { devnetForFile } from '../../../test/support/shared-devnet.ts'

// A development chain with a verifying paymaster and a relayer smart account that holds no ETH: operations land
// only when the ERC-7677 paymaster service (pm_getPaymasterStubData, pm_getPaymasterData) sponsors them.

const HUNDRED_USDC = parseUnits('100', 6)
const POLICY = 'sp_devnet_onboarding'
const devnet = await devnetForFile(import.meta.url, { chainIds: [42161], sponsored: true })
const deployment = toDeployment(devnet)
const one = devnetChain(devnet.chain(42161))
const paymaster = await startPaymasterServer({
  paymaster: one.chain.paymaster!,
  entryPoint: one.chain.entryPoint,
  chainId: 42161,
  signerKey: anvilAccount(accountIndexes.paymasterSigner).privateKey,
  policyId: POLICY,
})
const partners = [privateKeyToAccount(generatePrivateKey()), privateKeyToAccount(generatePrivateKey())]
const allowlist = partners.map((partner) => partner.address)
const relayerAccount = deployment.relayer.smartAccountAddress
t.teardown(async () => {
  await paymaster.close()
  one.close()
  await devnet.stop()
})

const bothParts = (index: number) => one.signBothParts(partners[index]!, HUNDRED_USDC)

t.test("a paymaster the service's context names sponsors the account's deployment and the onboarding", async (t) => {
  t.equal(await one.publicClient.getBalance({ address: relayerAccount }), 0n, 'the relaying account holds no ETH')
  const stack = await startOnboardingStack({
    deployment,
    allowlist,
    adjustChain: (chain) => ({ ...chain, paymasterUrl: paymaster.url, paymasterContext: { sponsorshipPolicyId: POLICY } }),
  })
  t.teardown(() => stack.stop())
  const fromBlock = await one.publicClient.getBlockNumber()

  const response = await post(stack.baseUrl, await bothParts(0), '198.51.100.1')

  t.equal(response.status, 200)
  const answer = await readJson(response)
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, { onboarded: true, missing: [], delegate: one.chain.contracts.wrapper, allowance: HUNDRED_USDC.toString() })
  const events = await one.onboardingOperationsAfter(relayerAccount, fromBlock)
  t.same(
    events.map((event) => [event.args.userOpHash, event.args.paymaster, event.args.success]),
    [[answer.userOpHash, one.chain.paymaster, true]],
    'paid by the paymaster',
  )
  t.equal(await one.publicClient.getBalance({ address: relayerAccount }), 0n, 'still no ETH')
  t.same(paymaster.methods, ['pm_getPaymasterStubData', 'pm_getPaymasterData', 'pm_getPaymasterStubData', 'pm_getPaymasterData'])
})

t.test('a paymaster that refuses (no such policy) fails the onboarding for good: 500, nothing sent', async (t) => {
  const stack = await startOnboardingStack({
    deployment,
    allowlist,
    adjustChain: (chain) => ({ ...chain, paymasterUrl: paymaster.url, paymasterContext: { sponsorshipPolicyId: 'sp_other' } }),
  })
  t.teardown(() => stack.stop())
  const fromBlock = await one.publicClient.getBlockNumber()
  const response = await post(stack.baseUrl, await bothParts(1), '198.51.100.2')
  t.equal(response.status, 500)
  const answer = await readJson(response)
  t.equal(answer.error, 'Internal Server Error')
  t.same(await one.onboardingOperationsAfter(relayerAccount, fromBlock), [])
})
