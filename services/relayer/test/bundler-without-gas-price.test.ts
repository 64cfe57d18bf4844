import t from 'tap'
import { parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevnet, toDeployment } from '../../../deploy/devnet/devnet.ts'
import { devnetChain } from '../../../test/support/devnet-chain.ts'
import { readJson } from '../../../test/support/http.ts'
import { startJsonRpcProxy } from '../../../test/support/json-rpc-proxy.ts'
import { startOnboardingStack } from '../../../test/support/onboarding-stack.ts'
import { chainTimePlus, signOnboarding } from '../../onboarding/partner-client.ts'

// A bundler that serves ERC-4337's standard methods but not Pimlico's pimlico_getUserOperationGasPrice, as most
// bundlers other than alto and Pimlico's do: alto behind a proxy that answers that method with JSON-RPC -32601
// ("Method not found", the JSON-RPC 2.0 code for an unknown method).

const HUNDRED_USDC = parseUnits('100', 6)
const devnet = await startDevnet({ chainIds: [42161] })
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
    const soon = await chainTimePlus(one.publicClient, 30 * 60)
    const body = await signOnboarding({
      chain: one.chain,
      client: one.publicClient,
      signer: partner,
      delegation: { expiry: soon },
      permit: { value: HUNDRED_USDC, deadline: soon },
    })
    const response = await fetch(`${stack.baseUrl}/v1/onboard`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${index + 1}`, connection: 'close' },
      body: JSON.stringify(body),
    })
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
