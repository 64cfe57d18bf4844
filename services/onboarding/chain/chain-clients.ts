import { createPublicClient, defineChain, http, type Chain, type PublicClient, type Transport } from 'viem'
import type { ChainConfig, PermitDomain } from './chain-config.ts'
import { closableFetch } from '../../../kit/closable-fetch.ts'
import { memoizeSuccess } from './memoize-success.ts'
import { readPermitDomain } from './permit-domain.ts'

/** What the intake and the relayer use to talk to one chain. */
export interface ChainConnection {
  config: ChainConfig
  chain: Chain
  publicClient: PublicClient
  /** the node's transport, for clients of other kinds (a partner's wallet in the demo) */
  rpcTransport: Transport
  bundlerTransport: Transport
  paymasterTransport?: Transport
  /** USDC's permit domain: the configured one, else read from the token once */
  permitDomain(): Promise<PermitDomain>
}

export interface ChainClients {
  get(chainId: number): ChainConnection | undefined
  /** closes every kept-alive connection */
  close(): void
}

/** Clients for the configured chains, sharing one pool of kept-alive connections. */
export function createChainClients(chains: ChainConfig[]): ChainClients {
  const { fetch, close } = closableFetch()
  const transport = (url: string) => http(url, { fetchFn: fetch })
  const connections = new Map<number, ChainConnection>()
  for (const config of chains) {
    const chain = defineChain({
      id: config.chainId,
      name: `chain ${config.chainId}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [config.rpcUrl] } },
    })
    const rpcTransport = transport(config.rpcUrl)
    const publicClient = createPublicClient({ chain, transport: rpcTransport }) as PublicClient
    connections.set(config.chainId, {
      config,
      chain,
      publicClient,
      rpcTransport,
      bundlerTransport: transport(config.bundlerUrl),
      ...(config.paymasterUrl && { paymasterTransport: transport(config.paymasterUrl) }),
      permitDomain: config.permitDomain
        ? async () => config.permitDomain!
        : memoizeSuccess(() => readPermitDomain(publicClient, config.contracts.usdc)),
    })
  }
  return { get: (chainId) => connections.get(chainId), close }
}
