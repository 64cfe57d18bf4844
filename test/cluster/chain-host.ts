// The cluster's chain host, run inside its namespace: the development chain (anvil and alto listen on this
// namespace's loopback only) and proxies from the host's address to them, so the other hosts reach them.
// Writes the deployment file with those addresses, prints "chain ready", runs until SIGTERM. The run's slow
// link is this host's link: SIGUSR1 holds every chunk through the proxies the given delay each way, SIGUSR2 lifts it.
import { writeFile } from 'node:fs/promises'
import { pino } from 'pino'
import { startDevnet, toDeployment } from '../../deploy/devnet/devnet.ts'
import { startTcpProxy } from '../support/tcp-proxy.ts'

const [address, deploymentFile, slowLinkMs] = process.argv.slice(2) as [string, string, string]
const RPC_PORT = 8545
const BUNDLER_PORT = 4337

const devnet = await startDevnet({ chainIds: [42161], logger: pino({ level: 'warn' }, pino.destination(2)) })
const chain = devnet.chain(42161)
const local = (url: string) => ({ host: '127.0.0.1', port: Number(new URL(url).port) })
const proxies = await Promise.all([
  startTcpProxy({ host: address, port: RPC_PORT }, local(chain.rpcUrl)),
  startTcpProxy({ host: address, port: BUNDLER_PORT }, local(chain.bundlerUrl)),
])
const deployment = toDeployment(devnet)
deployment.chains = deployment.chains.map((entry) => ({
  ...entry,
  rpcUrl: `http://${address}:${RPC_PORT}`,
  bundlerUrl: `http://${address}:${BUNDLER_PORT}`,
}))
await writeFile(deploymentFile, JSON.stringify(deployment, null, 2))
console.log('chain ready')
const setLinkDelay = (ms: number) => {
  for (const proxy of proxies) proxy.setDelay(ms)
  console.log(`link delay ${ms} ms`)
}
process.on('SIGUSR1', () => setLinkDelay(Number(slowLinkMs)))
process.on('SIGUSR2', () => setLinkDelay(0))
process.once('SIGTERM', () => {
  void Promise.all(proxies.map((proxy) => proxy.close()))
    .then(() => devnet.stop())
    .then(() => process.exit(0))
})
