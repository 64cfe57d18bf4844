// Serves the indexed-source stand-in on its own: npx tsx standins/subgraph/main.ts --port 8090

import { parseCommandLine } from '../../kit/command-line.ts'
import { DEFAULT_SEED } from './seed/seed-data.ts'

const command = parseCommandLine({
  usage: 'npx tsx standins/subgraph/main.ts [options]',
  summary: "Serves the indexed-source stand-in (the venue's subgraph as a GraphQL server with seeded data) for both chains.",
  options: {
    host: { type: 'string', default: '127.0.0.1', value: 'HOST', description: 'the address to listen on' },
    port: { type: 'string', default: '8090', value: 'PORT', description: 'the port to listen on (0: a free one)' },
    seed: { type: 'string', default: String(DEFAULT_SEED), value: 'N', description: 'the seed of the generated data' },
  },
})

// the GraphQL server is loaded once the command line is read: --help answers at once
const { CHAIN_IDS, DEMO_TRADER, startIndexerStandin } = await import('./index.ts')
const standin = await startIndexerStandin({
  host: command.values.host,
  port: command.number('port', { min: 0, max: 65535, integer: true }),
  seed: command.number('seed', { min: 0, max: 2 ** 32 - 1, integer: true }),
})
for (const chainId of CHAIN_IDS) process.stdout.write(`chain ${chainId}: ${standin.url(chainId)}\n`)
process.stdout.write(`demo trader: ${DEMO_TRADER}\n`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void standin.close().then(() => process.exit(0))
  })
}
