// test weight: heavy (the type checker is CPU-bound): the runner counts this file a whole core (test/runner/schedule.ts)
// The whole tree type-checks (`tsc --noEmit -p .`, TypeScript 7: scripts/type-checker.ts). It runs as one of the suite's files, so that tap runs it
// beside the others instead of every file waiting for it to finish first.
//
// Incrementally: the checker keeps what it found per file (by content) in the checkout's .tap/, and checks again
// only the files that changed and those whose types depend on them; a diagnostic of an unchanged file is
// reported again from there. Its paths are relative to that file, so CI carries it from one clone to the next
// (.ci/run). A whole check is about 17 CPU-seconds; one of an unchanged tree about 3.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { TYPE_CHECKER } from '../../scripts/type-checker.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** In the checkout's .tap/, beside the test tree (made afresh each run), whether run by the runner or alone. */
const BUILD_INFO = join(process.env.TEST_TREE_OF ?? ROOT, '.tap', 'type-check.tsbuildinfo')

// the check takes about 10 s on a quiet 2-core machine, several times that on a busy one
t.setTimeout(170_000)

t.test('tsc --noEmit -p . reports nothing', async (t) => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const args = [TYPE_CHECKER, '--noEmit', '-p', '.', '--incremental', '--tsBuildInfoFile', BUILD_INFO]
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: stdout + stderr }),
    )
  })
  t.equal(output, '', 'no diagnostics')
  t.equal(code, 0, 'exit code')
})
