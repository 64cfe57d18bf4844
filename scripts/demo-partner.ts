// The onboarding demo's partner (`npm run demo:onboard`, scripts/demo-onboard.ts): signs an onboarding for the
// development chains' demo partner and posts it. On 42161 the partner signs a permit (the maximum allowance) and a
// delegation; on 421614, whose test token has no permit, it approves TradingStorage from its own wallet first and
// posts the delegation alone.
import { createWalletClient, maxUint256, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { errorLine } from '../kit/command-line.ts'
import type { DevnetDeployment } from '../services/venue-contracts/deployment-record.ts'
import { chainConfigsFromDeployment, readDeploymentFile, type ChainConnection, onboardingTools } from '../services/onboarding/index.ts'
import { EMBEDDED_DEPLOYMENT_FILE } from '../deploy/devnet/embedded.ts'
import { chainTimePlus, signOnboarding } from '../loadtest/partner-signer.ts'
import { permitUsdcAbi } from '../services/venue-contracts/abis.ts'

const { createChainClients } = await onboardingTools()

const SIGNATURES_VALID_SECONDS = 30 * 60

/**
 * Posts the demo partner's onboarding on `chainId` of the deployment in `deploymentFile` (the one `npm start`
 * writes by default) to the service at `baseUrl`; the answer's status and body. Throws errors of one line, ending
 * with `noChains` when the file cannot be read or its chain does not answer.
 */
export async function onboardDemoPartner(options: {
  baseUrl: string
  deploymentFile: string | undefined
  chainId: number
  noChains: string
}): Promise<{ status: number; ok: boolean; body: unknown }> {
  const { baseUrl, chainId, noChains } = options
  const file = options.deploymentFile ?? EMBEDDED_DEPLOYMENT_FILE
  const deployment = await readDeploymentFile(file).catch((error: unknown) => {
    throw new Error(`${errorLine(error)}: ${noChains}`)
  })
  const clients = createChainClients(chainConfigsFromDeployment(deployment))
  try {
    const connection = clients.get(chainId)
    if (!connection) throw new Error(`the deployment in ${file} has no chain ${chainId}`)
    await connection.publicClient.getChainId().catch((error: unknown) => {
      throw new Error(
        `chain ${chainId} does not answer at ${connection.config.rpcUrl} (named in ${file}): ${noChains} (${errorLine(error)})`,
      )
    })
    const response = await postDemoOnboarding(baseUrl, deployment, connection)
    return { status: response.status, ok: response.ok, body: await response.json() }
  } finally {
    clients.close()
  }
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
  }).catch((error: unknown) => {
    throw new Error(`no answer from the service at ${baseUrl} (${errorLine(error)})`)
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
