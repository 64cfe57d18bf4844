// How node runs a TypeScript file of ours: in the test tree (test/test-tree.ts) its JavaScript sibling, as
// plain node; in the checkout the file itself, through tsx.
import { existsSync } from 'node:fs'

/** node's arguments that run `file` (a `.ts` path) */
export function nodeArgumentsFor(file: string): string[] {
  const compiled = file.replace(/\.ts$/, '.js')
  return compiled !== file && existsSync(compiled) ? [compiled] : ['--import', 'tsx', file]
}
