// The other supported Node line. The suite runs on Node 22, the image's runtime; Node 20 differs where the
// uWebSockets.js build differs (v20.30 instead of v20.57), so the embedded start's and the native server's test
// files run again here on the first Node 20 found on PATH (Debian 12's /usr/bin/node in CI), each as a subtest
// whose assertions count with the run's. Without a Node 20 on PATH the file says so and skips.
import { execFileSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** as this file is run: the test tree's JavaScript siblings under the runner, the sources run alone with tsx */
const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
const FILES = ['test/e2e/embedded-start.test', 'services/http/test/native-uws.test']

const node20 = (process.env.PATH ?? '').split(delimiter).flatMap((dir) => {
  const node = join(dir, 'node')
  try {
    accessSync(node, constants.X_OK)
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).startsWith('v20.') ? [node] : []
  } catch {
    return []
  }
})[0]

for (const file of FILES) {
  const args = extension === '.ts' ? ['--import', 'tsx', `${file}.ts`] : [`${file}.js`]
  const name = `${file}${extension} on Node 20`
  if (node20) await t.spawn(node20, args, { cwd: ROOT }, `${name} (${node20})`)
  else await t.test(name, { skip: 'no Node 20 on PATH' }, () => {})
}
