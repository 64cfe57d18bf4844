import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Logger } from 'pino'
import type { Abi, Hex } from 'viem'

export const contractNames = [
  'PermitUSDC',
  'PlainUSDC',
  'Trading',
  'TradingStorage',
  'VenueAtomicTrading',
  'OwnedContractWallet',
  'LegacyTrading',
  'SponsoringPaymaster',
] as const

export type ContractName = (typeof contractNames)[number]

export interface CompiledContract {
  abi: Abi
  bytecode: Hex
}

export type CompiledContracts = Record<ContractName, CompiledContract>

const contractsDirectory = fileURLToPath(new URL('./contracts/', import.meta.url))
const cacheDirectory = fileURLToPath(new URL('./out/', import.meta.url))
const require = createRequire(import.meta.url)

// A fork both Arbitrum and anvil support; the contracts need nothing newer.
const compilerSettings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
}

/**
 * Compiles `contracts/*.sol` with solc-js, or returns the cached result of an earlier compilation of the same
 * sources with the same compiler and OpenZeppelin version.
 */
export async function compileContracts(logger?: Logger): Promise<CompiledContracts> {
  const sources = await readContractSources()
  const cacheFile = join(cacheDirectory, `contracts-${cacheKey(sources)}.json`)
  const cached = await readCache(cacheFile)
  if (cached) {
    logger?.debug({ cacheFile }, 'using cached contract compilation')
    return cached
  }

  const startedAt = performance.now()
  const compiled = await compileWithSolc(sources, logger)
  await writeCache(cacheFile, compiled)
  logger?.info({ ms: Math.round(performance.now() - startedAt) }, 'compiled devnet contracts')
  return compiled
}

async function readContractSources(): Promise<Record<string, string>> {
  const fileNames = (await readdir(contractsDirectory)).filter((name) => name.endsWith('.sol')).sort()
  const sources: Record<string, string> = {}
  for (const fileName of fileNames) {
    sources[fileName] = await readFile(join(contractsDirectory, fileName), 'utf8')
  }
  return sources
}

function cacheKey(sources: Record<string, string>): string {
  const hash = createHash('sha256')
  hash.update(JSON.stringify({ sources, compilerSettings }))
  hash.update(packageVersion('solc'))
  hash.update(packageVersion('@openzeppelin/contracts'))
  return hash.digest('hex').slice(0, 16)
}

function packageVersion(packageName: string): string {
  return (require(`${packageName}/package.json`) as { version: string }).version
}

async function readCache(cacheFile: string): Promise<CompiledContracts | undefined> {
  try {
    return JSON.parse(await readFile(cacheFile, 'utf8')) as CompiledContracts
  } catch {
    return undefined
  }
}

// Written to a temporary name first so that a concurrent reader never sees half a file. Compilations of older
// sources are removed: only the current one is ever read.
async function writeCache(cacheFile: string, compiled: CompiledContracts): Promise<void> {
  await mkdir(cacheDirectory, { recursive: true })
  const temporaryFile = `${cacheFile}.${process.pid}.tmp`
  await writeFile(temporaryFile, JSON.stringify(compiled))
  await rename(temporaryFile, cacheFile)
  const staleFiles = (await readdir(cacheDirectory)).filter(
    (name) => /^contracts-[0-9a-f]+\.json$/.test(name) && name !== basename(cacheFile),
  )
  await Promise.all(staleFiles.map((name) => rm(join(cacheDirectory, name), { force: true })))
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[]
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
}

async function compileWithSolc(sources: Record<string, string>, logger?: Logger): Promise<CompiledContracts> {
  // Loaded only on a cache miss: initialising the compiler takes about a second.
  const { default: solc } = await import('solc')
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: compilerSettings,
  }
  const compile = solc.compile as (input: string, callbacks: { import: typeof readImport }) => string
  const output = JSON.parse(compile(JSON.stringify(input), { import: readImport })) as SolcOutput

  const problems = output.errors ?? []
  const errors = problems.filter((problem) => problem.severity === 'error')
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((error) => error.formattedMessage).join('\n')}`)
  }
  for (const warning of problems.filter((problem) => problem.severity === 'warning')) {
    logger?.warn(warning.formattedMessage)
  }

  const compiled = {} as CompiledContracts
  for (const name of contractNames) {
    const contract = output.contracts?.[`${name}.sol`]?.[name]
    if (!contract) throw new Error(`solc produced no output for ${name} (expected in ${name}.sol)`)
    compiled[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
  }
  return compiled
}

/** Resolves imports such as `@openzeppelin/contracts/...` from node_modules. */
function readImport(importPath: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(importPath), 'utf8') }
  } catch (error) {
    return { error: `cannot resolve import ${importPath}: ${(error as Error).message}` }
  }
}
