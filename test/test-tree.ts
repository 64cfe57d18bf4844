// The tree the test files run in: a copy of the checkout (its own sources, the build in dist/, docs and
// fixtures, at the same places) under .tap/tree/, where every TypeScript file has a JavaScript sibling
// (scripts/transpile.ts), so that each test file, and every process it starts from a file of ours, runs on
// plain node instead of paying TypeScript's loader (about a second of CPU per process). Relative paths, and
// `import.meta.url` read against the tree's own root, find what they find in the checkout; packages resolve
// to the checkout's node_modules. The copy is made afresh for every run, so files a test writes never reach
// the checkout.
import { cpSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { basename, join } from 'node:path'
import { transpile } from '../scripts/transpile.ts'

/** not copied: version control, packages (linked instead), test output, the tree itself */
const NOT_COPIED = new Set(['.git', 'node_modules', '.tap'])

/** Makes the tree for the checkout at `root`; returns its path. */
export async function prepareTestTree(root: string): Promise<string> {
  const tree = join(root, '.tap', 'tree')
  rmSync(tree, { recursive: true, force: true })
  // entry by entry: the tree lies inside the checkout, which cpSync will not copy whole into itself
  for (const entry of readdirSync(root)) {
    if (!NOT_COPIED.has(entry))
      cpSync(join(root, entry), join(tree, entry), { recursive: true, filter: (source) => !NOT_COPIED.has(basename(source)) })
  }
  symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'), 'dir')
  await transpile(typeScriptFiles(tree), { sourceRoot: tree, outRoot: tree, sourcemap: 'inline' })
  return tree
}

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return NOT_COPIED.has(entry.name) ? [] : typeScriptFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}
