import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseAbiItem,
  publicActions,
  type Address,
  type Hex,
  type LocalAccount,
  type PublicClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { chainTimePlus, signOnboarding } from '../../loadtest/partner-signer.ts'
import type { DevnetChain } from '../../services/venue-contracts/deployment-record.ts'
import { closableFetch } from '../../kit/closable-fetch.ts'

const userOperationEvent = parseAbiItem(
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)

/** A test's hands on one development chain: reads, anvil's controls, wallets of its own. */
export function devnetChain(chain: DevnetChain) {
  const { fetch, close } = closableFetch()
  const transport = http(chain.rpcUrl, { fetchFn: fetch })
  const viemChain = {
    id: chain.chainId,
    name: `devnet ${chain.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  } as const
  const publicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 50 }) as PublicClient
  return {
    chain,
    publicClient,
    anvil: createTestClient({ chain: viemChain, mode: 'anvil', transport }),
    /** a wallet client for an EOA that sends its own transactions (approve, deploy, execute) */
    wallet: (privateKey: Hex) =>
      createWalletClient({ chain: viemChain, account: privateKeyToAccount(privateKey), transport, pollingInterval: 50 }).extend(
        publicActions,
      ),
    /**
     * The EntryPoint's UserOperationEvents of `sender` in blocks after `block`, leaving out operations under
     * nonce key 0 (the relayer's account deploying itself): the relayer gives every onboarding a key of its own.
     */
    async onboardingOperationsAfter(sender: Address, block: bigint) {
      const events = await publicClient.getLogs({
        address: chain.entryPoint,
        event: userOperationEvent,
        args: { sender },
        fromBlock: block,
      })
      return events.filter((event) => event.blockNumber > block && event.args.nonce! >> 64n !== 0n)
    },
    /** a partner's permit for `value` and its delegation, both valid for 30 minutes of chain time */
    async signBothParts(signer: LocalAccount, value: bigint) {
      const soon = await chainTimePlus(publicClient, 30 * 60)
      return signOnboarding({ chain, client: publicClient, signer, delegation: { expiry: soon }, permit: { value, deadline: soon } })
    },
    close,
  }
}

export type DevnetChainHandle = ReturnType<typeof devnetChain>
