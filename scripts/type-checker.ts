import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * The type checker of the build and of the suite's whole-tree check: TypeScript 7, the native compiler (the
 * package alias `typescript-native`), which reports the same diagnostics as TypeScript 5 for about 40 % of its
 * CPU. ESLint's type-aware rules and editors keep TypeScript 5 (`typescript`), whose compiler API they use.
 */
// (its package exports no bin/tsc, so the path is taken from its package.json's)
export const TYPE_CHECKER = join(dirname(createRequire(import.meta.url).resolve('typescript-native/package.json')), 'bin', 'tsc')
