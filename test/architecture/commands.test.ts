// test weight: heavy (one node process after another for every command): the runner counts this file a whole core (test/runner/schedule.ts)
// Every command a user or a load tester runs behaves like a command: `--help` prints its usage on stdout and
// exits 0; an unknown option gets the usage and one line naming it on stderr, exit 2, and no stack trace.
// The commands are read from package.json (every script and bin), so a new one cannot escape this test.
// Each runs as its script runs it (node with tsx, sh, bash), not through npm, to keep the run short.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { ROOT, runCommand, STACK_FRAME, type CommandRun } from '../support/command-run.ts'
import { nodeArgumentsFor } from '../support/node-script.ts'

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>
  bin: Record<string, string>
}

/** Scripts that run another project's tool, whose command line is that tool's. */
const OTHER_TOOLS: Record<string, string> = {
  typecheck: 'tsc',
  lint: 'prettier and eslint',
  'lint:format': 'prettier',
  'lint:code': 'eslint',
  format: 'prettier',
}
/** Commands the docs name that are no npm script: the stand-in served on its own. */
const NOT_SCRIPTS = { 'standins/subgraph/main.ts': [process.execPath, ...nodeArgumentsFor(join(ROOT, 'standins/subgraph/main.ts'))] }

/**
 * How a script runs its file: `tsx f.ts`, `node --import tsx f.ts`, `node f.mjs` (also after exec), `sh f.sh`,
 * `bash f.sh`; a TypeScript file as its compiled sibling in the test tree (test/test-tree.ts).
 */
function invocation(script: string): string[] | undefined {
  const match = /^(?:exec )?(?:(tsx|node --import tsx)|(node)|(sh|bash)) (\S+)$/.exec(script)
  if (!match) return undefined
  const [, typeScript, plainNode, shell, file] = match
  if (shell) return [shell, file!]
  return plainNode || !typeScript ? [process.execPath, file!] : [process.execPath, ...nodeArgumentsFor(join(ROOT, file!))]
}

const commands = new Map<string, string[]>()
const unknownForms: string[] = []
for (const [name, script] of Object.entries(manifest.scripts)) {
  const command = invocation(script)
  if (command) commands.set(`npm run ${name}`, command)
  else if (!(name in OTHER_TOOLS)) unknownForms.push(`${name}: ${script}`)
}
for (const [name, file] of Object.entries(manifest.bin)) commands.set(name, [process.execPath, file])
for (const [name, command] of Object.entries(NOT_SCRIPTS)) commands.set(name, command)

t.test('every script runs a file of ours in a form this test runs, or another project tool named here', async (t) => {
  t.same(unknownForms, [])
  t.same(
    Object.keys(OTHER_TOOLS).filter((name) => !(name in manifest.scripts)),
    [],
    'no tool named here that the scripts lost',
  )
})

/** Runs every command with `args`, two at a time (one per core). */
async function runAll(args: string[]): Promise<Map<string, CommandRun>> {
  const runs = new Map<string, CommandRun>()
  const queue = [...commands]
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [name, [command, ...rest]] = next
      runs.set(name, await runCommand(command!, [...rest, ...args], { timeoutMs: 60_000 }))
    }
  }
  await Promise.all([worker(), worker()])
  return runs
}

t.test('--help: the usage on stdout, exit 0', async (t) => {
  for (const [name, run] of await runAll(['--help'])) {
    t.equal(run.code, 0, `${name}: exit 0`)
    t.match(run.stdout, /^usage: \S/, `${name}: the usage on stdout`)
    t.match(run.stdout, /\n {2}-h, --help {2,}print this help and exit\n/, `${name}: its options listed`)
    t.equal(run.stderr, '', `${name}: nothing on stderr`)
  }
})

t.test('an unknown option: the usage and one line naming it on stderr, exit 2, no stack trace', async (t) => {
  for (const [name, run] of await runAll(['--no-such-option'])) {
    t.equal(run.code, 2, `${name}: exit 2`)
    t.equal(run.stdout, '', `${name}: nothing on stdout`)
    t.match(run.stderr, /^usage: \S/, `${name}: the usage on stderr`)
    t.match(run.stderr, /\n\nerror: unknown option '--no-such-option'\n$/, `${name}: one line naming it, last`)
    t.notMatch(run.stderr, STACK_FRAME, `${name}: no stack trace`)
  }
})
