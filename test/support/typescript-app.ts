// What an application outside this repository does with our published artefacts: a small TypeScript
// project of its own (ESM on Node, strict), compiled by tsc, calling a running service.
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startIndexerStandin } from '../../standins/subgraph/index.ts'
import { indexedSourceAt, startServiceProcess } from './service-process.ts'

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

/**
 * The service an application calls: the compiled build's ingestor and edge, without onboarding (no chain), on
 * the GraphQL stand-in started in this process as its indexed source; `stop` stops both.
 */
export async function startServiceForApp(): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const indexer = await startIndexerStandin()
  const service = startServiceProcess(['edge', 'ingestor'], {
    PORT: '0',
    HOST: '127.0.0.1',
    ONBOARDING_ENABLED: 'false',
    ...indexedSourceAt(indexer),
  })
  const stop = async () => {
    await service.stop()
    await indexer.close()
  }
  const listening = await service.waitForLog('edge listening').catch(async (error: unknown) => {
    await stop()
    throw error
  })
  return { baseUrl: `http://127.0.0.1:${Number(listening.port)}`, stop }
}
