import {
  type Account,
  type Chain,
  type Hash,
  type PublicActions,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
  createWalletClient,
  defineChain,
  http,
  publicActions,
} from 'viem'

/** A viem wallet client that can also read, bound to one devnet chain. */
export type DevnetClient = WalletClient<Transport, Chain, Account> & PublicActions<Transport, Chain, Account>

// Anvil mines each transaction as it arrives, so receipts are there at once; viem's default of 4 s per poll
// would only make every wait slow.
const DEVNET_POLLING_INTERVAL_MS = 50

export function devnetChain(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: `devnet ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
}

export function devnetClient(chain: Chain, account: Account): DevnetClient {
  const rpcUrl = chain.rpcUrls.default.http[0]
  return createWalletClient({
    account,
    chain,
    transport: http(rpcUrl),
    pollingInterval: DEVNET_POLLING_INTERVAL_MS,
  }).extend(publicActions)
}

/** Waits for the transaction's receipt and throws if it reverted. */
export async function confirmTransaction(client: DevnetClient, hash: Hash, what: string): Promise<TransactionReceipt> {
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`${what} reverted (transaction ${hash})`)
  return receipt
}
