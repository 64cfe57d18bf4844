// The whole tree type-checks (`tsc --noEmit -p .`). It runs as one of the suite's files, so that tap runs it
// beside the others instead of every file waiting for it to finish first.
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc')

// tsc takes about 20 s on a quiet 2-core machine, several times that on a busy one (tap's own default is 30 s)
t.setTimeout(170_000)

t.test('tsc --noEmit -p . reports nothing', async (t) => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(process.execPath, [TSC, '--noEmit', '-p', '.'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: stdout + stderr }),
    )
  })
  t.equal(output, '', 'no diagnostics')
  t.equal(code, 0, 'exit code')
})
