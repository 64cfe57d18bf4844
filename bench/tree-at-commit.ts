// An earlier commit of this repository as a tree the benches can build and run beside this one: its files
// (git archive) in a temporary folder, with this tree's node_modules linked in, since an archive holds no
// installed packages. A commit whose lockfile differs much from this tree's may not build with them; the
// build says so.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

export interface TreeAtCommit {
  /** the full commit id */
  commit: string
  /** the folder holding the commit's files */
  dir: string
  remove(): void
}

/** Extracts `revision` (a commit id, branch or tag); throws with git's own message when it names no commit. */
export function treeAtCommit(revision: string): TreeAtCommit {
  let commit: string
  try {
    commit = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim()
  } catch {
    throw new Error(`"${revision}" names no commit of this repository`)
  }
  const dir = mkdtempSync(join(tmpdir(), `tree-${commit.slice(0, 8)}-`))
  execFileSync('sh', ['-c', 'git archive "$1" | tar -x -C "$2"', 'sh', commit, dir], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  return { commit, dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
