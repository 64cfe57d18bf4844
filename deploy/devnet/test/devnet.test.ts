import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { type Abi, type AbiParameter, type Address, encodeFunctionData, parseUnits, zeroAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { contractWalletAbi, mintableTokenAbi } from '../devnet-abis.ts'
import { permitUsdcAbi, tradingAbi, tradingStorageAbi, wrapperAbi } from '../../../services/venue-contracts/abis.ts'
import { CANONICAL_ENTRY_POINTS } from '../../../services/venue-contracts/entry-points.ts'
import { anvilAccount, firstFreeAccountIndex } from '../accounts.ts'
import { confirmTransaction, devnetChain, devnetClient } from '../clients.ts'
import type { CompiledContracts } from '../compile.ts'
import { startDevnet, writeDeployment } from '../devnet.ts'
import type { DevnetChain, DevnetDeployment } from '../../../services/venue-contracts/deployment-record.ts'
import {
  decodeUserOperationRevert,
  estimationRevertData,
  userOperationRevertData,
} from '../../../services/venue-contracts/user-operation-revert.ts'
import { deployContractWallet } from '../venue-contracts.ts'
import {
  type Relayer,
  chainTimePlus,
  createRelayer,
  delegationCall,
  gasLimitsWithoutEstimation,
  permitCall,
  relay,
  signDelegation,
  signPermit,
} from './support/relay.ts'

const venueErrors: Abi = [...tradingAbi, ...permitUsdcAbi]
const HUNDRED_USDC = parseUnits('100', 6)

const devnet = await startDevnet()
t.teardown(() => devnet.stop())

const arbitrumOne = devnet.chain(42161)
const arbitrumSepolia = devnet.chain(421614)
const relayerOnArbitrumOne = await createRelayer(arbitrumOne, devnet.relayer.privateKey)
const relayerOnArbitrumSepolia = await createRelayer(arbitrumSepolia, devnet.relayer.privateKey)

/** A funded anvil EOA that no other test uses, with a wallet client on `chain`. */
function freshWallet(chain: DevnetChain, offset: number) {
  const { privateKey } = anvilAccount(firstFreeAccountIndex + offset)
  const account = privateKeyToAccount(privateKey)
  return { account, client: devnetClient(devnetChain(chain.chainId, chain.rpcUrl), account) }
}

async function readOnboardingState(relayer: Relayer, chain: DevnetChain, partner: Address) {
  const { publicClient } = relayer
  const [delegate, delegationNonce, allowance] = await Promise.all([
    publicClient.readContract({
      address: chain.contracts.trading,
      abi: tradingAbi,
      functionName: 'delegations',
      args: [partner],
    }),
    publicClient.readContract({
      address: chain.contracts.trading,
      abi: tradingAbi,
      functionName: 'delegatableNonces',
      args: [partner],
    }),
    publicClient.readContract({
      address: chain.contracts.usdc,
      abi: permitUsdcAbi,
      functionName: 'allowance',
      args: [partner, chain.contracts.tradingStorage],
    }),
  ])
  return { delegate, delegationNonce, allowance }
}

t.test('EntryPoint v0.8 and SimpleAccountFactory v0.8 are at their canonical addresses', async (t) => {
  const chainsAndRelayers: [DevnetChain, Relayer][] = [
    [arbitrumOne, relayerOnArbitrumOne],
    [arbitrumSepolia, relayerOnArbitrumSepolia],
  ]
  for (const [chain, relayer] of chainsAndRelayers) {
    t.equal(chain.entryPoint, '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108')
    t.equal(chain.accountFactory, '0x13E9ed32155810FDbd067D4522C492D6f68E5944')
    for (const address of [CANONICAL_ENTRY_POINTS['0.8'].entryPoint, CANONICAL_ENTRY_POINTS['0.8'].simpleAccountFactory]) {
      const code = await relayer.publicClient.getCode({ address })
      t.ok(code && code.length > 2, `code at ${address} on ${chain.chainId}`)
    }
    // permissionless derives the same account with its default factory for 0.8: it uses these contracts.
    t.equal(relayer.smartAccount.address, devnet.relayer.smartAccountAddress)
  }
})

t.test("42161: one user operation applies the partner's permit and delegation", async (t) => {
  const relayer = relayerOnArbitrumOne
  const partner = privateKeyToAccount(devnet.demoPartner.privateKey)
  const expiry = await chainTimePlus(relayer, 30)
  const permit = await signPermit(relayer, arbitrumOne, partner, {
    owner: partner.address,
    value: HUNDRED_USDC,
    deadline: expiry,
  })
  const delegation = await signDelegation(relayer, arbitrumOne, partner, { expiry })
  t.same(await readOnboardingState(relayer, arbitrumOne, partner.address), {
    delegate: zeroAddress,
    delegationNonce: 0n,
    allowance: 0n,
  })

  const receipt = await relay(relayer, [permitCall(arbitrumOne, permit), delegationCall(arbitrumOne, delegation)])

  t.equal(receipt.success, true)
  t.equal(receipt.receipt.status, 'success')
  t.same(await readOnboardingState(relayer, arbitrumOne, partner.address), {
    delegate: arbitrumOne.contracts.wrapper,
    delegationNonce: 1n,
    allowance: HUNDRED_USDC,
  })

  // Both halves are what trading needs: through its delegate, TradingStorage pulls the permitted USDC.
  const partnerClient = devnetClient(devnetChain(42161, arbitrumOne.rpcUrl), partner)
  const deposit = await partnerClient.writeContract({
    address: arbitrumOne.contracts.wrapper,
    abi: wrapperAbi,
    functionName: 'depositCollateral',
    args: [HUNDRED_USDC],
  })
  await confirmTransaction(partnerClient, deposit, 'deposit through the wrapper')
  const collateral = await relayer.publicClient.readContract({
    address: arbitrumOne.contracts.tradingStorage,
    abi: tradingStorageAbi,
    functionName: 'collateralOf',
    args: [partner.address],
  })
  t.equal(collateral, HUNDRED_USDC)
})

t.test('42161: a bad delegation signature reverts the whole batch, permit included', async (t) => {
  const relayer = relayerOnArbitrumOne
  const partner = freshWallet(arbitrumOne, 0).account
  const impostor = freshWallet(arbitrumOne, 1).account
  const expiry = await chainTimePlus(relayer, 30)
  const permit = await signPermit(relayer, arbitrumOne, partner, {
    owner: partner.address,
    value: HUNDRED_USDC,
    deadline: expiry,
  })
  const forgedDelegation = await signDelegation(relayer, arbitrumOne, impostor, {
    delegator: partner.address,
    expiry,
  })
  const calls = [permitCall(arbitrumOne, permit), delegationCall(arbitrumOne, forgedDelegation)]

  // With gas estimation, the bundler refuses the operation (-32521) and nothing is sent.
  const refusal = await relayer.smartAccountClient.sendUserOperation({ calls }).then(
    () => undefined,
    (error: unknown) => error,
  )
  const estimatedRevert = estimationRevertData(refusal)
  t.ok(estimatedRevert, 'the refusal carries the revert data')
  t.equal(decodeUserOperationRevert(estimatedRevert!, venueErrors).summary, 'call 1: InvalidSignature()')

  // With gas limits given, it lands on chain, and its execution reverts.
  const receipt = await relay(relayer, calls, gasLimitsWithoutEstimation)
  t.equal(receipt.success, false)
  t.equal(receipt.receipt.status, 'success', 'the bundle transaction itself succeeds')
  const revertData = userOperationRevertData(receipt)!
  t.equal(
    userOperationRevertData({ ...receipt, reason: undefined }),
    revertData,
    "the EntryPoint's UserOperationRevertReason event holds the same data as alto's receipt",
  )
  const revert = decodeUserOperationRevert(revertData, venueErrors)
  t.same(revert, {
    callIndex: 1,
    data: '0x8baa579f',
    errorName: 'InvalidSignature',
    args: [],
    summary: 'call 1: InvalidSignature()',
  })
  t.same(await readOnboardingState(relayer, arbitrumOne, partner.address), {
    delegate: zeroAddress,
    delegationNonce: 0n,
    allowance: 0n,
  })
  const permitNonce = await relayer.publicClient.readContract({
    address: arbitrumOne.contracts.usdc,
    abi: permitUsdcAbi,
    functionName: 'nonces',
    args: [partner.address],
  })
  t.equal(permitNonce, 0n, "the permit's nonce was not used up either")
})

t.test('42161: a revert reason string is decoded too (expired permit)', async (t) => {
  const relayer = relayerOnArbitrumOne
  const partner = freshWallet(arbitrumOne, 2).account
  const expired = (await chainTimePlus(relayer, 0)) - 1n
  const permit = await signPermit(relayer, arbitrumOne, partner, {
    owner: partner.address,
    value: HUNDRED_USDC,
    deadline: expired,
  })
  const delegation = await signDelegation(relayer, arbitrumOne, partner, { expiry: await chainTimePlus(relayer, 30) })
  const refusal = await relayer.smartAccountClient
    .sendUserOperation({ calls: [permitCall(arbitrumOne, permit), delegationCall(arbitrumOne, delegation)] })
    .then(
      () => undefined,
      (error: unknown) => error,
    )
  const revert = decodeUserOperationRevert(estimationRevertData(refusal)!, venueErrors)
  t.equal(revert.callIndex, 0)
  t.equal(revert.errorName, 'Error')
  t.equal(revert.summary, 'call 0: "FiatTokenV2: permit is expired"')
})

t.test('421614: the partner approves by itself and only the delegation is relayed', async (t) => {
  const relayer = relayerOnArbitrumSepolia
  const partner = privateKeyToAccount(devnet.demoPartner.privateKey)
  t.equal(arbitrumSepolia.usdcHasPermit, false)
  await t.rejects(
    relayer.publicClient.readContract({
      address: arbitrumSepolia.contracts.usdc,
      abi: permitUsdcAbi,
      functionName: 'nonces',
      args: [partner.address],
    }),
    'the plain token has no nonces()',
  )

  const partnerClient = devnetClient(devnetChain(421614, arbitrumSepolia.rpcUrl), partner)
  const approval = await partnerClient.writeContract({
    address: arbitrumSepolia.contracts.usdc,
    abi: permitUsdcAbi,
    functionName: 'approve',
    args: [arbitrumSepolia.contracts.tradingStorage, HUNDRED_USDC],
  })
  await confirmTransaction(partnerClient, approval, 'approve')
  const delegation = await signDelegation(relayer, arbitrumSepolia, partner, {
    expiry: await chainTimePlus(relayer, 30),
  })

  const receipt = await relay(relayer, [delegationCall(arbitrumSepolia, delegation)])

  t.equal(receipt.success, true)
  t.same(await readOnboardingState(relayer, arbitrumSepolia, partner.address), {
    delegate: arbitrumSepolia.contracts.wrapper,
    delegationNonce: 1n,
    allowance: HUNDRED_USDC,
  })
})

t.test('42161: a contract wallet delegates by itself and its permit is verified by ERC-1271', async (t) => {
  const relayer = relayerOnArbitrumOne
  const owner = freshWallet(arbitrumOne, 3)
  const wallet = await deployContractWallet(owner.client, devnet.compiledContracts, owner.account.address)
  const setDelegate = await owner.client.writeContract({
    address: wallet,
    abi: contractWalletAbi,
    functionName: 'execute',
    args: [arbitrumOne.contracts.trading, 0n, encodeSetDelegate(arbitrumOne)],
  })
  await confirmTransaction(owner.client, setDelegate, "the wallet's setDelegate")

  // The owner signs for the wallet; the token cannot recover the wallet's address from it, so only the
  // wallet's isValidSignature can accept it.
  const permit = await signPermit(relayer, arbitrumOne, owner.account, {
    owner: wallet,
    value: HUNDRED_USDC,
    deadline: await chainTimePlus(relayer, 30),
  })
  const receipt = await relay(relayer, [permitCall(arbitrumOne, permit)])

  t.equal(receipt.success, true)
  t.same(await readOnboardingState(relayer, arbitrumOne, wallet), {
    delegate: arbitrumOne.contracts.wrapper,
    delegationNonce: 1n,
    allowance: HUNDRED_USDC,
  })
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

function encodeSetDelegate(chain: DevnetChain) {
  return encodeFunctionData({ abi: tradingAbi, functionName: 'setDelegate', args: [chain.contracts.wrapper] })
}
