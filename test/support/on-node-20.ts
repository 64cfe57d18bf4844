// The other supported Node line. The suite runs on Node 22, the image's runtime; Node 20 differs where the
// uWebSockets.js build differs (v20.30 instead of v20.57). A file whose behaviour depends on that calls
// alsoOnNode20 after its own tests: it runs again, whole, on the first Node 20 on PATH (Debian 12's
// /usr/bin/node in CI) as a subtest whose assertions count with the file's. After its own tests, so that the
// two runs never compete with each other for the machine. Without a Node 20 on PATH it says so and skips.
import { execFileSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Test } from 'tap'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Runs the file at `fileUrl` (its import.meta.url) again on Node 20, unless this already is Node 20. */
export async function alsoOnNode20(t: Test, fileUrl: string): Promise<void> {
  if (process.versions.node.startsWith('20.')) return
  const file = fileURLToPath(fileUrl)
  // as the file is run: the test tree's JavaScript sibling under the runner, the source through tsx alone
  const args = file.endsWith('.ts') ? ['--import', 'tsx', file] : [file]
  const node20 = firstNode20OnPath()
  const name = 'the same tests on Node 20'
  if (node20) await t.spawn(node20, args, { cwd: ROOT }, `${name} (${node20})`)
  else await t.test(name, { skip: 'no Node 20 on PATH' }, () => {})
}

function firstNode20OnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const node = join(dir, 'node')
    try {
      accessSync(node, constants.X_OK)
      if (execFileSync(node, ['--version'], { encoding: 'utf8' }).startsWith('v20.')) return node
    } catch {
      // not there, or not runnable
    }
  }
  return undefined
}
