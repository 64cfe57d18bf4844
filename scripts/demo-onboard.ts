// Signs and posts an onboarding for the development chain's demo partner, and prints the answer:
//   npx tsx scripts/demo-onboard.ts [base URL] [deployment file] [--chain 42161|421614]
// Defaults: http://localhost:8080 and the deployment that `npm start` writes for its embedded chains.
// On 42161 the partner signs a permit (the maximum allowance) and a delegation; on 421614, whose test token
// has no permit, it approves TradingStorage from its own wallet first and posts the delegation alone.
import { parseArgs } from 'node:util'
import { createWalletClient, maxUint256, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { DevnetDeployment } from '../services/venue-contracts/deployment-record.ts'
import { createChainClients, type ChainConnection } from '../services/onboarding/chain-clients.ts'
import { chainConfigsFromDeployment } from '../services/onboarding/chain-config.ts'
import { EMBEDDED_DEPLOYMENT_FILE } from '../deploy/devnet/embedded.ts'
import { readDeploymentFile } from '../services/onboarding/deployment.ts'
import { chainTimePlus, signOnboarding } from '../services/onboarding/partner-client.ts'
import { permitUsdcAbi } from '../services/venue-contracts/abis.ts'

const SIGNATURES_VALID_SECONDS = 30 * 60

const { positionals, values } = parseArgs({ allowPositionals: true, options: { chain: { type: 'string', default: '42161' } } })
// the service's address: first argument, else localhost on PORT (as `npm start` reads it)
const [baseUrl = `http://localhost:${process.env.PORT ?? 8080}`, deploymentFile = EMBEDDED_DEPLOYMENT_FILE] = positionals

const deployment = await readDeploymentFile(deploymentFile)
const clients = createChainClients(chainConfigsFromDeployment(deployment))
try {
  const connection = clients.get(Number(values.chain))
  if (!connection) throw new Error(`the deployment has no chain ${values.chain}`)
  const response = await postDemoOnboarding(baseUrl, deployment, connection)
  console.log(`POST /v1/onboard → ${response.status}`)
  console.log(JSON.stringify(await response.json(), null, 2))
  process.exitCode = response.ok ? 0 : 1
} finally {
  clients.close()
}

async function postDemoOnboarding(baseUrl: string, deployment: DevnetDeployment, connection: ChainConnection): Promise<Response> {
  const { config: chain, publicClient: client } = connection
  const partner = privateKeyToAccount(deployment.demoPartner.privateKey)
  const expiry = await chainTimePlus(client, SIGNATURES_VALID_SECONDS)
  const hasPermit = deployment.chains.find((candidate) => candidate.chainId === chain.chainId)?.usdcHasPermit ?? true
  if (!hasPermit) await approveFromWallet(connection, deployment.demoPartner.privateKey)
  const body = await signOnboarding({
    chain,
    client,
    signer: partner,
    delegation: { expiry },
    ...(hasPermit && { permit: { value: maxUint256, deadline: expiry } }),
  })
  return fetch(new URL('/v1/onboard', baseUrl), {
    method: 'POST',
    // one request: no connection left open to hold the process after the answer
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify(body),
  })
}

/** The partner's own transaction: TradingStorage may spend its USDC. */
async function approveFromWallet(connection: ChainConnection, privateKey: Hex): Promise<void> {
  const wallet = createWalletClient({
    chain: connection.chain,
    account: privateKeyToAccount(privateKey),
    transport: connection.rpcTransport,
  })
  const hash = await wallet.writeContract({
    address: connection.config.contracts.usdc,
    abi: permitUsdcAbi,
    functionName: 'approve',
    args: [connection.config.contracts.tradingStorage, maxUint256],
  })
  await connection.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
}
