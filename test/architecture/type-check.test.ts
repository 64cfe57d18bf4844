// The whole tree type-checks (`tsc --noEmit -p .`, TypeScript 7: scripts/type-checker.ts). It runs as one of the suite's files, so that tap runs it
// beside the others instead of every file waiting for it to finish first.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { TYPE_CHECKER } from '../../scripts/type-checker.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

// the check takes about 10 s on a quiet 2-core machine, several times that on a busy one
t.setTimeout(170_000)

t.test('tsc --noEmit -p . reports nothing', async (t) => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(process.execPath, [TYPE_CHECKER, '--noEmit', '-p', '.'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: stdout + stderr }),
    )
  })
  t.equal(output, '', 'no diagnostics')
  t.equal(code, 0, 'exit code')
})
