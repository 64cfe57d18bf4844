// The command-line entry serves both chains, prints their URLs, and exits cleanly on SIGTERM.

import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { START_DEADLINE_MS } from '../../../test/support/wait.ts'
import { queryData } from './fixtures/standin-client.ts'
import { nodeArgumentsFor } from '../../../test/support/node-script.ts'

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url))

t.test('main.ts --port 0', async (t) => {
  const child = spawn(process.execPath, [...nodeArgumentsFor(MAIN), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  const urls = new Map<string, string>()
  const printed: string[] = []
  const deadline = AbortSignal.timeout(START_DEADLINE_MS)
  for await (const line of createInterface({ input: child.stdout, signal: deadline })) {
    printed.push(line)
    const match = /^chain (\d+): (http:\/\/\S+)$/.exec(line)
    if (match?.[1] && match[2]) urls.set(match[1], match[2])
    if (line.startsWith('demo trader: ')) break
  }
  t.match(urls.get('42161'), /^http:\/\/127\.0\.0\.1:\d+\/subgraphs\/venue-42161$/)
  t.match(urls.get('421614'), /^http:\/\/127\.0\.0\.1:\d+\/subgraphs\/venue-421614$/)
  t.ok(printed.includes('demo trader: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8'))

  const answer = await queryData<{ pair: { from: string } }>(urls.get('42161') ?? '', '{ pair(id: "10") { from } }')
  t.strictSame(answer, { pair: { from: 'SPX' } })

  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  const [code] = await exited
  t.equal(code, 0)
})
