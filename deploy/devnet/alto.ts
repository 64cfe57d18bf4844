import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Logger } from 'pino'
import type { Address, Hex } from 'viem'
import { startChildProcess } from './child-process.ts'

export interface AltoOptions {
  chainId: number
  rpcUrl: string
  entryPoint: Address
  /** Signs the bundle transactions. */
  executorPrivateKey: Hex
  /** Deploys alto's simulation contract and refills the executor. */
  utilityPrivateKey: Hex
  logger?: Logger
}

export interface AltoBundler {
  bundlerUrl: string
  stop(): Promise<void>
}

/**
 * A hang detector, as anvil's (anvil.ts): 60 s ran out once for an anvil under CI load on a 2-core machine, and
 * alto starts under the same load with more to do (a Node process, about 4 CPU-seconds to start). 180 s.
 */
const READY_TIMEOUT_MS = 180_000
const loopbackPreload = new URL('./alto-loopback.mjs', import.meta.url).href
/**
 * A young generation of 1 MB instead of V8's default (up to 16 MB per semi-space): each development
 * bundler then holds about 50 MB less (RSS about 130 MB instead of 180) for a few more short collections.
 */
const ALTO_NODE_FLAGS = ['--max-semi-space-size=1']

/** Starts the alto ERC-4337 bundler against one node, on a free port of 127.0.0.1 (the port is chosen by alto). */
export async function startAlto(options: AltoOptions): Promise<AltoBundler> {
  const running = await startChildProcess({
    name: `alto ${options.chainId}`,
    command: process.execPath,
    args: [...ALTO_NODE_FLAGS, '--import', loopbackPreload, altoCliPath(), ...altoArguments(options)],
    // Logged by alto's "rpc" logger at info level, so that logger must not be quieter than info.
    readyLine: /Server listening at (http:\/\/127\.0\.0\.1:\d+)/,
    readyTimeoutMs: READY_TIMEOUT_MS,
    logger: options.logger,
  })
  return { bundlerUrl: running.readyValue, stop: running.stop }
}

function altoArguments(options: AltoOptions): string[] {
  return [
    ['--rpc-url', options.rpcUrl],
    ['--entrypoints', options.entryPoint],
    ['--executor-private-keys', options.executorPrivateKey],
    ['--utility-private-key', options.utilityPrivateKey],
    // Safe mode (the full ERC-7562 rule check) rejects every EntryPoint v0.8 operation in alto 0.0.20.
    ['--safe-mode', 'false'],
    ['--deploy-simulations-contract', 'true'],
    // Not "arbitrum", even for 42161 and 421614: that chain type prices the L1 data fee through Arbitrum's
    // NodeInterface precompile at 0xC8, which anvil does not have. See the README.
    ['--chain-type', 'default'],
    ['--port', '0'],
    ['--json', 'true'],
    ['--log-level', 'info'],
    // At info these two log every JSON-RPC exchange with the node, bytecode included.
    ['--public-client-log-level', 'warn'],
    ['--wallet-client-log-level', 'warn'],
  ].flat()
}

function altoCliPath(): string {
  // The package exports only its library entry (esm/index.js); the command line entry sits beside it.
  const libraryEntry = createRequire(import.meta.url).resolve('@pimlico/alto')
  return join(dirname(libraryEntry), 'cli', 'alto.js')
}
