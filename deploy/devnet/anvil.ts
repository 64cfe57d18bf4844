import { createRequire } from 'node:module'
import type { Logger } from 'pino'
import { ANVIL_MNEMONIC } from './accounts.ts'
import { startChildProcess } from './child-process.ts'

export interface AnvilNode {
  chainId: number
  rpcUrl: string
  stop(): Promise<void>
}

/**
 * A hang detector: 60 s ran out once under CI load on a 2-core machine (the shared development chain, "anvil
 * 421614 did not become ready within 60000 ms"; how long it would have taken is not known), against well under a
 * second on a quiet one. 180 s is 3 times that 60 s.
 */
const READY_TIMEOUT_MS = 180_000

/** Starts an automining anvil for `chainId` on a free port of 127.0.0.1 (the port is chosen by anvil). */
export async function startAnvil(chainId: number, logger?: Logger): Promise<AnvilNode> {
  const running = await startChildProcess({
    name: `anvil ${chainId}`,
    command: anvilBinaryPath(),
    args: ['--chain-id', String(chainId), '--host', '127.0.0.1', '--port', '0', '--mnemonic', ANVIL_MNEMONIC],
    readyLine: /Listening on (127\.0\.0\.1:\d+)/,
    readyTimeoutMs: READY_TIMEOUT_MS,
    logger,
  })
  return { chainId, rpcUrl: `http://${running.readyValue}`, stop: running.stop }
}

/**
 * The binary inside the platform package. `@foundry-rs/anvil`'s own bin is a Node wrapper that would stay
 * between us and anvil, so signals and the exit status would go through it.
 */
function anvilBinaryPath(): string {
  const architecture = process.arch === 'x64' ? 'amd64' : process.arch
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${architecture}`
  return createRequire(import.meta.url).resolve(`${platformPackage}/bin/anvil`)
}
