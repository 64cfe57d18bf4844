// The production dependency closure as package-lock.json records it: every package npm installs with
// `npm ci --omit=dev`, one row per name and version.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

interface LockEntry {
  name?: string
  version?: string
  license?: string
  dev?: boolean
  devOptional?: boolean
  optional?: boolean
  hasInstallScript?: boolean
}

export interface LockedPackage {
  /** the name it is installed under */
  name: string
  /** the registry package, when installed under another name (an npm: alias) */
  realName?: string
  version: string
  /** the licence its package.json states; undefined when it states none */
  license: string | undefined
  optional: boolean
  hasInstallScript: boolean
}

export function readLockfile(path = `${ROOT}/package-lock.json`): Record<string, LockEntry> {
  return (JSON.parse(readFileSync(path, 'utf8')) as { packages: Record<string, LockEntry> }).packages
}

/** What production installs, sorted by name and version. */
export function productionPackages(packages: Record<string, LockEntry> = readLockfile()): LockedPackage[] {
  const byKey = new Map<string, LockedPackage>()
  for (const [path, entry] of Object.entries(packages)) {
    if (!path || entry.dev || entry.devOptional || !entry.version) continue
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
    byKey.set(`${name}@${entry.version}`, {
      name,
      ...(entry.name && entry.name !== name && { realName: entry.name }),
      version: entry.version,
      license: entry.license,
      optional: entry.optional === true,
      hasInstallScript: entry.hasInstallScript === true,
    })
  }
  return [...byKey.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version))
}

/** Every package name in the lockfile (dev included) whose install script npm would run if approved. */
export function packagesWithInstallScripts(packages: Record<string, LockEntry> = readLockfile()): Set<string> {
  const names = new Set<string>()
  for (const [path, entry] of Object.entries(packages)) {
    if (path && entry.hasInstallScript) names.add(entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
  }
  return names
}
