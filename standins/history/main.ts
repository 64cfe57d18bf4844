// Serves the History API stand-in on its own: npx tsx standins/history/main.ts --port 8091

import { parseArgs } from 'node:util'
import { startHistoryStandin } from './server.ts'

const USAGE = 'usage: main.ts [--host 127.0.0.1] [--port 8091] [--seed 1] [--api-key KEY]'

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8091' },
    seed: { type: 'string', default: '1' },
    'api-key': { type: 'string' },
  },
})
const [port, seed] = [Number(values.port), Number(values.seed)]
if (!Number.isInteger(port) || port < 0 || port > 65_535 || !Number.isInteger(seed)) {
  process.stderr.write(`--port must be 0 to 65535 and --seed an integer\n${USAGE}\n`)
  process.exit(2)
}

const standin = await startHistoryStandin({ host: values.host, port, seed, apiKey: values['api-key'] })
process.stdout.write(`HISTORY_URL=${standin.channelUrl()}\n`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void standin.close().then(() => process.exit(0))
  })
}
