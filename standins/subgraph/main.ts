// Serves the indexed-source stand-in on its own: npx tsx standins/subgraph/main.ts --port 8090

import { parseArgs } from 'node:util'
import { CHAIN_IDS, DEFAULT_SEED, DEMO_TRADER, startIndexerStandin } from './index.ts'

const USAGE = 'usage: main.ts [--host 127.0.0.1] [--port 8090] [--seed 1]'

function integerOption(name: string, text: string, min: number, max: number): number {
  const value = Number(text)
  if (!Number.isInteger(value) || value < min || value > max) {
    process.stderr.write(`--${name} must be an integer from ${min} to ${max}, got "${text}"\n${USAGE}\n`)
    process.exit(2)
  }
  return value
}

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8090' },
    seed: { type: 'string', default: String(DEFAULT_SEED) },
  },
})

const standin = await startIndexerStandin({
  host: values.host,
  port: integerOption('port', values.port, 0, 65535),
  seed: integerOption('seed', values.seed, 0, 2 ** 32 - 1),
})
for (const chainId of CHAIN_IDS) process.stdout.write(`chain ${chainId}: ${standin.url(chainId)}\n`)
process.stdout.write(`demo trader: ${DEMO_TRADER}\n`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void standin.close().then(() => process.exit(0))
  })
}
