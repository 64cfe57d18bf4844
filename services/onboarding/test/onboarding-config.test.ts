import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { inspect, parseEnv as parseEnvFile } from 'node:util'
import t from 'tap'
import type { DevnetDeployment } from '../../venue-contracts/deployment-record.ts'
import { relayerConfig } from '../relay/relayer-config.ts'
import { CANONICAL_ENTRY_POINTS } from '../../venue-contracts/entry-points.ts'
import { onboardingConfig } from '../config.ts'
import { readDeploymentFile } from '../chain/deployment.ts'

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
      entryPoint: CANONICAL_ENTRY_POINTS['0.8'].entryPoint,
      entryPointVersion: '0.8',
      accountFactory: CANONICAL_ENTRY_POINTS['0.8'].simpleAccountFactory,
      contracts: { trading, tradingStorage, usdc, wrapper },
      usdcHasPermit: true,
      delegationDomain: { name: 'Ostium', version: '1', typeName: 'Delegation' },
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
        entryPoint: CANONICAL_ENTRY_POINTS['0.8'].entryPoint,
        entryPointVersion: '0.8',
        accountFactory: CANONICAL_ENTRY_POINTS['0.8'].simpleAccountFactory,
        contracts: { trading, tradingStorage, usdc, wrapper },
        permitDomain: { name: 'USD Coin', version: '2' },
        delegationDomain: { name: 'Venue', version: '1', typeName: 'VenueDelegation' },
      },
    ],
    allowlist: new Set([partner.toLowerCase(), usdc.toLowerCase()]),
    deadlineMs: 20_000,
    sponsorship: { partnerOnboardingsPerDay: 20, gasPerOperation: 2_000_000, dailyGas: 200_000_000 },
  })
})

t.test("the delegation's domain name, version and type name are the chain's own when configured", async (t) => {
  const config = onboardingConfig({
    ...chain42161,
    CHAIN_42161_DELEGATION_NAME: 'Ostium',
    CHAIN_42161_DELEGATION_VERSION: '2',
    CHAIN_42161_DELEGATION_TYPE: 'Delegation',
  })
  t.same(config.chains[0]!.delegationDomain, { name: 'Ostium', version: '2', typeName: 'Delegation' })
  t.throws(() => onboardingConfig({ ...chain42161, CHAIN_42161_DELEGATION_TYPE: 'Delegation(address a)' }), {
    code: 'config_invalid',
    message: /CHAIN_42161_DELEGATION_TYPE="Delegation\(address a\)": must be an EIP-712 type name/,
  })
  t.throws(() => onboardingConfig({ ...chain42161, CHAIN_42161_DELEGATION_NAME: '' }), { message: /CHAIN_42161_DELEGATION_NAME/ })
})

t.test('EntryPoint v0.7 by configuration: its canonical EntryPoint and SimpleAccount factory unless others are set', async (t) => {
  const [v07] = onboardingConfig({ ...chain42161, CHAIN_42161_ENTRY_POINT_VERSION: '0.7' }).chains
  t.same(
    [v07!.entryPointVersion, v07!.entryPoint, v07!.accountFactory],
    ['0.7', CANONICAL_ENTRY_POINTS['0.7'].entryPoint, CANONICAL_ENTRY_POINTS['0.7'].simpleAccountFactory],
  )
  const [own] = onboardingConfig({
    ...chain42161,
    CHAIN_42161_ENTRY_POINT_VERSION: '0.7',
    CHAIN_42161_ACCOUNT_FACTORY: wrapper.toLowerCase(),
  }).chains
  t.equal(own!.accountFactory, wrapper)
  t.throws(() => onboardingConfig({ ...chain42161, CHAIN_42161_ENTRY_POINT_VERSION: '0.6' }), {
    message: /CHAIN_42161_ENTRY_POINT_VERSION/,
  })
})

t.test("the example environment files hold the SDK configs' addresses and stop the start until the wrapper is supplied", async (t) => {
  const sdkAddresses = {
    42161: {
      trading: '0x6D0bA1f9996DBD8885827e1b2e8f6593e7702411',
      tradingStorage: '0xcCd5891083A8acD2074690F65d3024E7D13d66E7',
      usdc: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    },
    421614: {
      trading: '0x2A9B9c988393f46a2537B0ff11E98c2C15a95afe',
      tradingStorage: '0x0b9F5243B29938668c9Cfbd7557A389EC7Ef88b8',
      usdc: '0xe73B11Fb1e3eeEe8AF2a23079A4410Fe1B370548',
    },
  }
  for (const [file, chainId] of [
    ['arbitrum-one.env', 42161],
    ['arbitrum-sepolia.env', 421614],
  ] as const) {
    const env = parseEnvFile(readFileSync(new URL(`../../../deploy/env/${file}`, import.meta.url), 'utf8'))
    t.throws(() => onboardingConfig(env), { message: new RegExp(`CHAIN_${chainId}_BUNDLER_URL`) }, `${file} names what must be supplied`)
    const supplied = { ...env, [`CHAIN_${chainId}_BUNDLER_URL`]: 'https://bundler.example', [`CHAIN_${chainId}_WRAPPER`]: wrapper }
    const [chain] = onboardingConfig(supplied).chains
    t.same(chain!.contracts, { ...sdkAddresses[chainId], wrapper }, file)
    t.same(chain!.delegationDomain, { name: 'Ostium', version: '1', typeName: 'Delegation' }, file)
  }
})

t.test("a paymaster's context is a JSON object", async (t) => {
  const [chain] = onboardingConfig({
    ...chain42161,
    CHAIN_42161_PAYMASTER_URL: 'https://paymaster.example/42161',
    CHAIN_42161_PAYMASTER_CONTEXT: '{"sponsorshipPolicyId":"sp_1"}',
  }).chains
  t.same([chain!.paymasterUrl, chain!.paymasterContext], ['https://paymaster.example/42161', { sponsorshipPolicyId: 'sp_1' }])
  for (const wrong of ['sp_1', '[1]', 'null']) {
    t.throws(() => onboardingConfig({ ...chain42161, CHAIN_42161_PAYMASTER_CONTEXT: wrong }), {
      message: /CHAIN_42161_PAYMASTER_CONTEXT=".*": must be a JSON object/,
    })
  }
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
  t.same(config.chains[0]!.delegationDomain, { name: 'Ostium', version: '1', typeName: 'Delegation' })
  t.same([...config.allowlist], [partner.toLowerCase()])
  t.equal(config.deadlineMs, 5000)
  const { delegationDomain: _, ...olderChain } = deployment.chains[0]!
  writeFileSync(file, JSON.stringify({ ...deployment, chains: [olderChain] }))
  t.same(
    onboardingConfig({}, await readDeploymentFile(file)).chains[0]!.delegationDomain,
    { name: 'Venue', version: '1', typeName: 'VenueDelegation' },
    "a record without the names has the spec's",
  )
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
