import t from 'tap'
import { parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { toDeployment } from '../../../deploy/devnet/devnet.ts'
import { devnetChain } from '../../../test/support/devnet-chain.ts'
import { postOnboarding, readJson } from '../../../test/support/http.ts'
import { startJsonRpcProxy } from '../../../test/support/json-rpc-proxy.ts'
import { startOnboardingStack } from '../../../test/support/onboarding-stack.ts'
import { devnetForFile } from '../../../test/support/shared-devnet.ts'

// A bundler that serves ERC-4337's standard methods but not Pimlico's pimlico_getUserOperationGasPrice, as most
// bundlers other than alto and Pimlico's do: alto behind a proxy that answers that method with JSON-RPC -32601
// ("Method not found", the JSON-RPC 2.0 code for an unknown method).

const HUNDRED_USDC = parseUnits('100', 6)
const devnet = await devnetForFile(import.meta.url, { chainIds: [42161] })
const deployment = toDeployment(devnet)
const one = devnetChain(devnet.chain(42161))
const bundler = await startJsonRpcProxy(one.chain.bundlerUrl, ({ method }) =>
  method === 'pimlico_getUserOperationGasPrice' ? { code: -32601, message: 'Method not found' } : false,
)
const partners = [privateKeyToAccount(generatePrivateKey()), privateKeyToAccount(generatePrivateKey())]
const stack = await startOnboardingStack({
  deployment,
  allowlist: partners.map((partner) => partner.address),
  adjustChain: (chain) => ({ ...chain, bundlerUrl: bundler.url }),
})
t.teardown(async () => {
  await stack.stop()
  await bundler.close()
  one.close()
  await devnet.stop()
})

t.test('fees come from the node once the bundler refuses pimlico_getUserOperationGasPrice, and onboardings land', async (t) => {
  for (const [index, partner] of partners.entries()) {
    const response = await postOnboarding(stack.baseUrl, await one.signBothParts(partner, HUNDRED_USDC), `198.51.100.${index + 1}`)
    t.equal(response.status, 200)
    const answer = await readJson(response)
    t.equal(answer.status, 'confirmed')
    t.same(answer.state, { onboarded: true, missing: [], delegate: one.chain.contracts.wrapper, allowance: HUNDRED_USDC.toString() })
  }
  const asked = bundler.methods.filter((method) => method === 'pimlico_getUserOperationGasPrice')
  t.equal(asked.length, 1, 'asked once, never again after the refusal')
  // the account's own deployment and the two onboardings
  t.equal(bundler.methods.filter((method) => method === 'eth_sendUserOperation').length, 3)
})
