// Schema drift check: npm run subgraph:drift [-- URL ...]
// Introspects each subgraph URL (default: INDEXER_URL_42161 and INDEXER_URL_421614) and lists what of the
// service's reads the deployment would not answer as expected: fields it lacks, needed fields it declares
// nullable, queries it refuses. Exit 0: none; 1: some; 2: a URL failed.

import { parseCommandLine } from '../kit/command-line.ts'
import { describeFinding, findSchemaDrift } from '../services/indexer/schema-drift.ts'

const command = parseCommandLine({
  usage: 'npm run subgraph:drift -- [subgraph URL ...]',
  summary:
    "Introspects each subgraph URL (default: INDEXER_URL_42161 and INDEXER_URL_421614) and lists what of the service's\n" +
    'reads the deployment would not answer as expected: fields it lacks, needed fields it declares nullable, queries it\n' +
    'refuses. Exit 0: none; 1: some; 2: a URL failed.',
  maxPositionals: Number.POSITIVE_INFINITY,
  options: {},
})
const urls =
  command.positionals.length > 0
    ? command.positionals
    : [process.env.INDEXER_URL_42161, process.env.INDEXER_URL_421614].filter((url): url is string => Boolean(url))
if (urls.length === 0) command.refuse('give a subgraph URL, or set INDEXER_URL_42161 / INDEXER_URL_421614')
for (const url of urls) command.url('a subgraph URL', url, ['http:', 'https:'])

let status = 0
for (const url of urls) {
  try {
    const findings = await findSchemaDrift(url, 30_000)
    process.stdout.write(
      `${url}: ${findings.length === 0 ? 'every field the service reads is there, as it reads it' : `${findings.length} finding(s)`}\n`,
    )
    for (const finding of findings) process.stdout.write(`  ${finding.field}  ${describeFinding(finding)}\n`)
    if (findings.length > 0) status = Math.max(status, 1)
  } catch (error) {
    process.stdout.write(`${url}: cannot introspect (${error instanceof Error ? error.message : String(error)})\n`)
    status = 2
  }
}
process.exit(status)
