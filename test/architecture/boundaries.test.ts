// The layering the README's layout table states, checked on the source: which folders production code may
// import, and no import cycles anywhere.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('node_modules') && !file.includes('/out/'))
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return [...text.matchAll(IMPORT)].map((match) => normalize(join(dirname(file), match[1] ?? match[2] ?? match[3]!)))
}

const isTest = (file: string) => /(^|\/)test\//.test(file)
const production = ['schemas', 'kit', 'bus', 'services', 'standins'].flatMap(sourceFiles).filter((file) => !isTest(file))

// what each top-level folder's production code may import (besides itself)
const allowed: Record<string, string[]> = {
  schemas: [],
  kit: [],
  bus: ['kit', 'schemas'],
  services: ['kit', 'bus', 'schemas'],
  // development stand-ins of outside systems: handed in by the development entry point, never imported by services/
  standins: ['kit', 'bus', 'schemas', 'services'],
}

t.test('production code imports only the layers below it, never standins/, deploy/, bench/, test/ or scripts/', async (t) => {
  const violations: string[] = []
  for (const file of production) {
    const layer = file.split('/')[0]!
    for (const target of importsOf(file)) {
      const targetLayer = target.split('/')[0]!
      // the live board's script runs in the browser, on our published stream client
      const allowedHere = file.startsWith('services/pages/browser/') ? [...allowed[layer]!, 'client'] : allowed[layer]!
      if (targetLayer !== layer && !allowedHere.includes(targetLayer)) violations.push(`${file} -> ${target}`)
      if (isTest(target)) violations.push(`${file} -> ${target}`)
    }
  }
  t.same(violations, [])
})

t.test('no capability imports the edge or the top-level files of services/, which compose them', async (t) => {
  // the process's composition: the edge, and services/*.ts (configuration, run-roles, serve, main, ...)
  const composers = /^services\/(edge\/|[^/]+\.ts$)/
  const violations = production
    .filter((file) => file.startsWith('services/') && !composers.test(file))
    .flatMap((file) =>
      importsOf(file)
        .filter((target) => composers.test(target))
        .map((target) => `${file} -> ${target}`),
    )
  t.same(violations, [])
})

t.test('onboarding has one public surface (its index.ts), and its intake and relay do not import each other', async (t) => {
  const everyFile = ['schemas', 'kit', 'bus', 'services', 'standins', 'deploy', 'scripts', 'client', 'loadtest', 'bench', 'test'].flatMap(
    sourceFiles,
  )
  const inside = (file: string) => file.startsWith('services/onboarding/')
  const violations = everyFile.flatMap((file) =>
    importsOf(file)
      .filter((target) => inside(target) && target !== 'services/onboarding/index.ts' && !inside(file))
      .map((target) => `${file} -> ${target}`),
  )
  t.same(violations, [], 'only index.ts is imported from outside')
  const crossing = everyFile
    .filter((file) => /^services\/onboarding\/(intake|relay)\//.test(file))
    .flatMap((file) => {
      const other = file.startsWith('services/onboarding/intake/') ? 'services/onboarding/relay/' : 'services/onboarding/intake/'
      return importsOf(file)
        .filter((target) => target.startsWith(other))
        .map((target) => `${file} -> ${target}`)
    })
  t.same(crossing, [], 'intake/ and relay/ share only what lies above them in services/onboarding/')
})

t.test('no import cycles', async (t) => {
  const files = ['schemas', 'kit', 'bus', 'services', 'standins', 'deploy', 'scripts', 'client'].flatMap(sourceFiles)
  const graph = new Map(files.map((file) => [file, importsOf(file)]))
  const cycles: string[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return
    if (state.get(file) === 'visiting') {
      cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '))
      return
    }
    state.set(file, 'visiting')
    for (const target of graph.get(file) ?? []) visit(target, [...path, file])
    state.set(file, 'done')
  }
  for (const file of files) visit(file, [])
  t.same(cycles, [])
})
