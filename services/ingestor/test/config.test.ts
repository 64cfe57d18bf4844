import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'

import t from 'tap'

import { checkConfiguration } from '../../check-configuration.ts'
import { ingestorConfig } from '../config.ts'

const KEY = 'config-key-1e2d'

function keyFile(content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ingestor-config-')), 'hermes-key')
  writeFileSync(file, content)
  return file
}

t.test('the Hermes API key comes from HERMES_API_KEY or HERMES_API_KEY_FILE and never prints', (t) => {
  t.equal(ingestorConfig({}).hermesApiKey, undefined, 'none by default')
  t.equal(ingestorConfig({ HERMES_API_KEY: KEY }).hermesApiKey?.reveal(), KEY)
  const fromFile = ingestorConfig({ HERMES_API_KEY_FILE: keyFile(`${KEY}\n`) })
  t.equal(fromFile.hermesApiKey?.reveal(), KEY, 'read from the file, trailing newline trimmed')
  t.notOk(inspect(fromFile).includes(KEY) || JSON.stringify(fromFile).includes(KEY), 'the config prints without the key')
  t.end()
})

t.test("the start's configuration check hands the key to the logger's masking", (t) => {
  const { secrets } = checkConfiguration(
    { ROLES: 'ingestor', HERMES_API_KEY_FILE: keyFile(KEY) },
    { embeddedChains: false, embeddedIndexer: false },
  )
  t.ok(secrets.includes(KEY))
  t.end()
})

t.test('a wrong key setting stops the start with a message that names the variable, not the key', (t) => {
  const both = errorMessage(() => ingestorConfig({ HERMES_API_KEY: KEY, HERMES_API_KEY_FILE: keyFile(KEY) }))
  t.match(both, /HERMES_API_KEY: set HERMES_API_KEY or HERMES_API_KEY_FILE, not both/)
  t.notOk(both.includes(KEY), 'the key is not quoted')
  t.throws(() => ingestorConfig({ HERMES_API_KEY_FILE: '/nonexistent/hermes-key' }), {
    code: 'config_invalid',
    message: /HERMES_API_KEY_FILE \/nonexistent\/hermes-key cannot be read/,
  })
  const twoWords = keyFile(`${KEY} second-line`)
  const message = errorMessage(() => ingestorConfig({ HERMES_API_KEY_FILE: twoWords }))
  t.match(message, /HERMES_API_KEY_FILE .* does not hold one key/)
  t.notOk(message.includes(KEY), 'the message does not quote the file')
  t.throws(() => ingestorConfig({ HERMES_API_KEY: '' }), { code: 'config_invalid', message: /HERMES_API_KEY/ })
  t.throws(() => ingestorConfig({ HERMES_IGNORE_INVALID_PRICE_IDS: 'maybe' }), { message: /HERMES_IGNORE_INVALID_PRICE_IDS/ })
  t.equal(ingestorConfig({ HERMES_IGNORE_INVALID_PRICE_IDS: 'false' }).HERMES_IGNORE_INVALID_PRICE_IDS, false)
  t.end()
})

function errorMessage(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected a configuration error')
}
