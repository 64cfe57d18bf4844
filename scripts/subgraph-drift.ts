// Schema drift check: npm run subgraph:drift [-- URL ...]
// Introspects each subgraph URL (default: INDEXER_URL_42161 and INDEXER_URL_421614) and lists the fields
// the service reads that the deployment lacks. Exit 0: none missing; 1: some missing; 2: a URL failed.

import { findMissingFields } from '../services/indexer/schema-drift.ts'

const urls =
  process.argv.slice(2).length > 0
    ? process.argv.slice(2)
    : [process.env.INDEXER_URL_42161, process.env.INDEXER_URL_421614].filter((url): url is string => Boolean(url))
if (urls.length === 0) {
  process.stderr.write('usage: npm run subgraph:drift -- <subgraph URL> ... (or set INDEXER_URL_42161 / INDEXER_URL_421614)\n')
  process.exit(2)
}

let status = 0
for (const url of urls) {
  try {
    const missing = await findMissingFields(url, 30_000)
    process.stdout.write(
      `${url}: ${missing.length === 0 ? 'every field the service reads is there' : `${missing.length} field(s) missing`}\n`,
    )
    for (const { field, optional } of missing) {
      process.stdout.write(`  ${field}  ${optional ? 'optional: read as null' : 'required: reads selecting it fail'}\n`)
    }
    if (missing.length > 0) status = Math.max(status, 1)
  } catch (error) {
    process.stdout.write(`${url}: cannot introspect (${error instanceof Error ? error.message : String(error)})\n`)
    status = 2
  }
}
process.exit(status)
