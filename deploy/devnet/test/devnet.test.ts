// The development chain as the product uses it: EntryPoint and factory where the relayer expects them, and
// onboardings relayed by the service's own intake and relayer (test/support/onboarding-stack.ts) on both
// chains, for an EOA and for a contract wallet, with what each onboarding is for (a deposit) tried after it.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { type Abi, type AbiParameter, type Address, encodeFunctionData, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { contractWalletAbi, mintableTokenAbi } from '../devnet-abis.ts'
import { permitUsdcAbi, tradingAbi, tradingStorageAbi, wrapperAbi } from '../../../services/venue-contracts/abis.ts'
import { CANONICAL_ENTRY_POINTS } from '../../../services/venue-contracts/entry-points.ts'
import type { CompiledContracts } from '../compile.ts'
import { toDeployment, writeDeployment } from '../devnet.ts'
import type { DevnetDeployment } from '../../../services/venue-contracts/deployment-record.ts'
import { deployContractWallet } from '../venue-contracts.ts'
import { chainTimePlus, signOnboarding } from '../../../loadtest/partner-signer.ts'
import { devnetChain, type DevnetChainHandle } from '../../../test/support/devnet-chain.ts'
import { postOnboarding, readJson } from '../../../test/support/http.ts'
import { startOnboardingStack } from '../../../test/support/onboarding-stack.ts'
import { devnetForFile } from '../../../test/support/shared-devnet.ts'

const HUNDRED_USDC = parseUnits('100', 6)

const devnet = await devnetForFile(import.meta.url)
const one = devnetChain(devnet.chain(42161))
const sepolia = devnetChain(devnet.chain(421614))
const partner = privateKeyToAccount(devnet.demoPartner.privateKey)
const walletOwner = await devnet.account('wallet owner')
const contractWallet = await deployContractWallet(
  one.wallet(walletOwner.privateKey),
  devnet.compiledContracts,
  privateKeyToAccount(walletOwner.privateKey).address,
)
const stack = await startOnboardingStack({ deployment: toDeployment(devnet), allowlist: [partner.address, contractWallet] })
t.teardown(async () => {
  await stack.stop()
  one.close()
  sepolia.close()
  await devnet.stop()
})

// Loopback is a trusted proxy: each onboarding is its own client, with its own rate-limit budget.
let clientsTaken = 0
const post = async (body: unknown) => {
  const response = await postOnboarding(stack.baseUrl, body, `198.51.100.${++clientsTaken}`)
  return { status: response.status, answer: await readJson(response) }
}
const onboarded = (chain: DevnetChainHandle) => ({
  onboarded: true,
  missing: [],
  delegate: chain.chain.contracts.wrapper,
  allowance: HUNDRED_USDC.toString(),
})

t.test('EntryPoint v0.8 and SimpleAccountFactory v0.8 are at their canonical addresses', async (t) => {
  for (const chain of [one, sepolia]) {
    t.equal(chain.chain.entryPoint, '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108')
    t.equal(chain.chain.accountFactory, '0x13E9ed32155810FDbd067D4522C492D6f68E5944')
    for (const address of [CANONICAL_ENTRY_POINTS['0.8'].entryPoint, CANONICAL_ENTRY_POINTS['0.8'].simpleAccountFactory]) {
      const code = await chain.publicClient.getCode({ address })
      t.ok(code && code.length > 2, `code at ${address} on ${chain.chain.chainId}`)
    }
  }
})

t.test("42161: the relayer applies the partner's permit and delegation in one operation, and the deposit works", async (t) => {
  const fromBlock = await one.publicClient.getBlockNumber()
  const body = await one.signBothParts(partner, HUNDRED_USDC)

  const { status, answer } = await post(body)

  t.equal(status, 200)
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, onboarded(one))
  const operations = await one.onboardingOperationsAfter(devnet.relayer.smartAccountAddress, fromBlock)
  t.same(
    operations.map((operation) => [operation.args.userOpHash, operation.args.success]),
    [[answer.userOpHash, true]],
    "one operation, from the smart account the deployment names for the relayer's key",
  )
  // Both halves are what trading needs: through its delegate, TradingStorage pulls the permitted USDC.
  const wallet = one.wallet(devnet.demoPartner.privateKey)
  const deposit = await wallet.writeContract({
    address: one.chain.contracts.wrapper,
    abi: wrapperAbi,
    functionName: 'depositCollateral',
    args: [HUNDRED_USDC],
  })
  t.equal((await wallet.waitForTransactionReceipt({ hash: deposit })).status, 'success')
  t.equal(await collateralOf(one, partner.address), HUNDRED_USDC)
})

t.test('421614: the partner approves by itself and only the delegation is relayed', async (t) => {
  t.equal(sepolia.chain.usdcHasPermit, false)
  await t.rejects(
    sepolia.publicClient.readContract({
      address: sepolia.chain.contracts.usdc,
      abi: permitUsdcAbi,
      functionName: 'nonces',
      args: [partner.address],
    }),
    'the plain token has no nonces()',
  )
  const wallet = sepolia.wallet(devnet.demoPartner.privateKey)
  const approval = await wallet.writeContract({
    address: sepolia.chain.contracts.usdc,
    abi: permitUsdcAbi,
    functionName: 'approve',
    args: [sepolia.chain.contracts.tradingStorage, HUNDRED_USDC],
  })
  t.equal((await wallet.waitForTransactionReceipt({ hash: approval })).status, 'success')
  const body = await signOnboarding({
    chain: sepolia.chain,
    client: sepolia.publicClient,
    signer: partner,
    delegation: { expiry: await chainTimePlus(sepolia.publicClient, 30 * 60) },
  })

  const { status, answer } = await post(body)

  t.equal(status, 200)
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, onboarded(sepolia))
})

t.test('42161: a contract wallet delegates by itself and its permit is verified by ERC-1271', async (t) => {
  const owner = one.wallet(walletOwner.privateKey)
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
  t.equal((await owner.waitForTransactionReceipt({ hash: setDelegate })).status, 'success')
  // The owner signs for the wallet; the token cannot recover the wallet's address from it, so only the
  // wallet's isValidSignature can accept it.
  const body = await signOnboarding({
    chain: one.chain,
    client: one.publicClient,
    signer: privateKeyToAccount(walletOwner.privateKey),
    partner: contractWallet,
    permit: { value: HUNDRED_USDC, deadline: await chainTimePlus(one.publicClient, 30 * 60) },
  })

  const { status, answer } = await post(body)

  t.equal(status, 200)
  t.equal(answer.status, 'confirmed')
  t.same(answer.state, onboarded(one))
})

t.test('writeDeployment records addresses, URLs and the test keys', async (t) => {
  const file = join(t.testdir(), 'deployment.json')
  await writeDeployment(devnet, file)
  const deployment = JSON.parse(await readFile(file, 'utf8')) as DevnetDeployment
  t.same(deployment.chains, devnet.chains)
  t.same(deployment.relayer, {
    address: devnet.relayer.address,
    smartAccountAddress: devnet.relayer.smartAccountAddress,
    devnetRelayerPrivateKey: devnet.relayer.privateKey,
  })
  t.same(deployment.demoPartner, devnet.demoPartner)
  t.match(deployment.chains[0]!.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/)
  t.match(deployment.chains[0]!.bundlerUrl, /^http:\/\/127\.0\.0\.1:\d+$/)
})

t.test('the ABIs declared for the relay match the compiled contracts', async (t) => {
  const declared: [keyof CompiledContracts, Abi][] = [
    ['Trading', tradingAbi],
    ['PermitUSDC', [...permitUsdcAbi, ...mintableTokenAbi]],
    ['VenueAtomicTrading', wrapperAbi],
    ['TradingStorage', tradingStorageAbi],
    ['OwnedContractWallet', contractWalletAbi],
  ]
  for (const [contractName, abi] of declared) {
    const compiled = new Set(devnet.compiledContracts[contractName].abi.map(signatureOf))
    const missing = abi.map(signatureOf).filter((signature) => !compiled.has(signature))
    t.same(missing, [], `${contractName} has everything its declared ABI lists`)
  }
})

function collateralOf(chain: DevnetChainHandle, trader: Address) {
  return chain.publicClient.readContract({
    address: chain.chain.contracts.tradingStorage,
    abi: tradingStorageAbi,
    functionName: 'collateralOf',
    args: [trader],
  })
}

/**
 * E.g. "function delegations(address) view returns (address)": everything but parameter names, and with pure
 * counted as view (the same to a caller).
 */
function signatureOf(item: Abi[number]): string {
  if (!('name' in item)) return item.type
  const types = (parameters: readonly AbiParameter[] = []) =>
    parameters.map((parameter) => `${parameter.type}${'indexed' in parameter && parameter.indexed ? ' indexed' : ''}`)
  const mutability = 'stateMutability' in item ? ` ${item.stateMutability.replace('pure', 'view')}` : ''
  const outputs = 'outputs' in item ? ` returns (${types(item.outputs).join(',')})` : ''
  return `${item.type} ${item.name}(${types(item.inputs).join(',')})${mutability}${outputs}`
}
