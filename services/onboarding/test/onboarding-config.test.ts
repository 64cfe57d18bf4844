import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { inspect } from 'node:util'
import t from 'tap'
import type { DevnetDeployment } from '../../venue-contracts/deployment-record.ts'
import { relayerConfig } from '../../relayer/config.ts'
import { ENTRY_POINT_V08 } from '../chain-config.ts'
import { onboardingConfig } from '../config.ts'
import { readDeploymentFile } from '../deployment.ts'

const trading = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const tradingStorage = '0xa16E02E87b7454126E5E10d957A927A7F5B5d2be'
const usdc = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const wrapper = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9'
const partner = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const key = `0x${'ab'.repeat(32)}` as const

const chain42161 = {
  CHAIN_42161_RPC_URL: 'https://arb1.example/rpc',
  CHAIN_42161_BUNDLER_URL: 'https://bundler.example/42161',
  CHAIN_42161_TRADING: trading.toLowerCase(),
  CHAIN_42161_TRADING_STORAGE: tradingStorage,
  CHAIN_42161_USDC: usdc,
  CHAIN_42161_WRAPPER: wrapper,
}

const deployment: DevnetDeployment = {
  chains: [
    {
      chainId: 42161,
      rpcUrl: 'http://127.0.0.1:1',
      bundlerUrl: 'http://127.0.0.1:2',
      entryPoint: ENTRY_POINT_V08,
      accountFactory: '0x13E9ed32155810FDbd067D4522C492D6f68E5944',
      contracts: { trading, tradingStorage, usdc, wrapper },
      usdcHasPermit: true,
    },
  ],
  relayer: { address: partner, smartAccountAddress: wrapper, devnetRelayerPrivateKey: key },
  demoPartner: { address: partner, privateKey: key },
}

t.test('chains from CHAIN_<id>_* variables, addresses checksummed, EntryPoint v0.8 by default', async (t) => {
  const config = onboardingConfig({
    ...chain42161,
    ONBOARD_ALLOWLIST: `${partner}, ${usdc}`,
    CHAIN_42161_USDC_PERMIT_NAME: 'USD Coin',
    CHAIN_42161_USDC_PERMIT_VERSION: '2',
  })
  t.same(config, {
    chains: [
      {
        chainId: 42161,
        rpcUrl: 'https://arb1.example/rpc',
        bundlerUrl: 'https://bundler.example/42161',
        entryPoint: ENTRY_POINT_V08,
        contracts: { trading, tradingStorage, usdc, wrapper },
        permitDomain: { name: 'USD Coin', version: '2' },
      },
    ],
    allowlist: new Set([partner.toLowerCase(), usdc.toLowerCase()]),
    deadlineMs: 20_000,
  })
})

t.test('a wrong or missing setting stops the start with a message naming it', async (t) => {
  const { CHAIN_42161_WRAPPER: _, ...withoutWrapper } = chain42161
  t.throws(() => onboardingConfig(withoutWrapper), { code: 'config_invalid', message: /CHAIN_42161_WRAPPER/ })
  t.throws(() => onboardingConfig({ ...chain42161, CHAIN_42161_USDC_PERMIT_NAME: 'USD Coin' }), {
    message: /CHAIN_42161_USDC_PERMIT_VERSION( is not set|="[^"]*"): set both or neither/,
  })
  t.throws(() => onboardingConfig({ ...chain42161, ONBOARD_ALLOWLIST: '0x123' }), { message: /ONBOARD_ALLOWLIST/ })
  t.throws(() => onboardingConfig({ ...chain42161, ONBOARD_DEADLINE_MS: '0' }), { message: /ONBOARD_DEADLINE_MS/ })
  t.throws(() => onboardingConfig({}), { message: /no chain configured/ })
})

t.test("a deployment gives the chains and allowlists the development chain's demo partner", async (t) => {
  const file = join(t.testdir(), 'deployment.json')
  writeFileSync(file, JSON.stringify(deployment))
  const config = onboardingConfig({ ONBOARD_DEADLINE_MS: '5000' }, await readDeploymentFile(file))
  t.same(
    config.chains.map((chain) => chain.chainId),
    [42161],
  )
  t.same([...config.allowlist], [partner.toLowerCase()])
  t.equal(config.deadlineMs, 5000)
  writeFileSync(file, '{"chains": 1}')
  await t.rejects(readDeploymentFile(file), { code: 'config_invalid', message: /is not a deployment/ })
})

t.test('the relayer key comes from the environment, a file, or a deployment, and never shows', async (t) => {
  const file = join(t.testdir(), 'relayer.key')
  writeFileSync(file, `${key}\n`)
  t.equal(relayerConfig({ RELAYER_PRIVATE_KEY: key }).privateKey.reveal(), key)
  t.equal(relayerConfig({ RELAYER_PRIVATE_KEY_FILE: file }).privateKey.reveal(), key)
  t.equal(relayerConfig({}, deployment).privateKey.reveal(), key)
  t.throws(() => relayerConfig({}), { code: 'config_invalid', message: /RELAYER_PRIVATE_KEY or RELAYER_PRIVATE_KEY_FILE is required/ })
  t.throws(() => relayerConfig({ RELAYER_PRIVATE_KEY: key, RELAYER_PRIVATE_KEY_FILE: file }), { message: /not both/ })

  const config = relayerConfig({ RELAYER_PRIVATE_KEY: key, RELAYER_CONCURRENCY: '4' })
  t.equal(config.concurrency, 4)
  for (const shown of [JSON.stringify(config), inspect(config), String(config.privateKey)]) t.notOk(shown.includes('abab'), shown)
  writeFileSync(file, 'not a key')
  t.throws(() => relayerConfig({ RELAYER_PRIVATE_KEY_FILE: file }), { message: /does not hold a 32-byte hex key/ })
  t.throws(
    () => relayerConfig({ RELAYER_PRIVATE_KEY: `${key}00` }),
    {
      message: 'invalid configuration for relayer: RELAYER_PRIVATE_KEY: must be a 32-byte hex key (0x and 64 hex characters)',
    },
    'a malformed key is not echoed',
  )
})
