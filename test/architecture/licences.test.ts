// docs/dependencies.md lists the production dependency closure with licences, generated from package-lock.json
// by `npm run deps:licences`. It fails when the lockfile changed and the list was not written again.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { DEPENDENCY_LIST, dependencyList } from '../../scripts/dependencies/write-dependency-list.ts'
import { productionPackages } from '../../scripts/dependencies/lockfile.ts'

t.test('docs/dependencies.md is the list generated from the lockfile (npm run deps:licences)', async (t) => {
  t.equal(readFileSync(DEPENDENCY_LIST, 'utf8'), dependencyList())
})

t.test('the list has one row per production package, and every one states a licence', async (t) => {
  const packages = productionPackages()
  const rows = readFileSync(DEPENDENCY_LIST, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Package') && !line.startsWith('| ---'))
  t.equal(rows.length, packages.length)
  t.same(
    packages.filter((pkg) => !pkg.license).map((pkg) => `${pkg.name}@${pkg.version}`),
    [],
    'a package without a stated licence needs a look before it ships',
  )
})
