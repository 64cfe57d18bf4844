// What an application outside this repository does with our published artefacts: a small TypeScript
// project of its own (ESM on Node, strict), compiled by tsc, calling a running service.
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { runRoles } from '../../services/run-roles.ts'
import { WITH_EMBEDDED_INDEXER } from './embedded-indexer.ts'
import { silentLogger } from './silent-logger.ts'

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc')

/** The compiler options an application on Node ESM starts from. */
const APP_COMPILER_OPTIONS = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true }

/** Writes `files` and a tsconfig.json (the application's options plus `compilerOptions`, compiling `include`) into `folder`. */
export function writeTypeScriptApp(options: {
  folder: string
  files: Record<string, string>
  compilerOptions: Record<string, unknown>
  include: string[]
}): void {
  for (const [name, text] of Object.entries(options.files)) writeFileSync(join(options.folder, name), text)
  const tsconfig = { compilerOptions: { ...APP_COMPILER_OPTIONS, ...options.compilerOptions }, include: options.include }
  writeFileSync(join(options.folder, 'tsconfig.json'), JSON.stringify(tsconfig))
}

/** Runs `tsc -p project`: resolves with '' when it compiles, else with what tsc reported. */
export async function compileTypeScript(project: string): Promise<string> {
  return promisify(execFile)(process.execPath, [TSC, '-p', project]).then(
    () => '',
    (failure: { stdout: string }) => failure.stdout,
  )
}

/** Every role in this process on the embedded defaults, without onboarding (no chain); quiet. */
export async function startEmbeddedService(): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const service = await runRoles(
    { PORT: '0', OPS_PORT: '0', HOST: '127.0.0.1', ONBOARDING_ENABLED: 'false' },
    silentLogger(),
    WITH_EMBEDDED_INDEXER,
  )
  return { baseUrl: `http://127.0.0.1:${service.port}`, stop: () => service.stop() }
}
