// npm 11 runs a dependency's install script only when package.json's allowScripts approves it. Every
// production package with an install script is either approved there or listed with the reason it works
// without it (scripts/dependencies/install-script-reviews.ts, recorded as denied in allowScripts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { INSTALL_SCRIPTS_NOT_RUN } from '../../scripts/dependencies/install-script-reviews.ts'
import { packagesWithInstallScripts, productionPackages, ROOT } from '../../scripts/dependencies/lockfile.ts'

const { allowScripts = {} } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  allowScripts?: Record<string, boolean>
}
/** allowScripts keys are `name` or `name@version` */
const approved = (name: string, version: string) => allowScripts[name] === true || allowScripts[`${name}@${version}`] === true

t.test('every production package with an install script is approved or listed with a reason', async (t) => {
  const withScripts = productionPackages().filter((pkg) => pkg.hasInstallScript)
  t.ok(withScripts.length > 0, 'the lockfile records install scripts (hasInstallScript)')
  const unreviewed = withScripts
    .map((pkg) => ({ name: pkg.realName ?? pkg.name, version: pkg.version }))
    .filter(({ name, version }) => !approved(name, version) && !INSTALL_SCRIPTS_NOT_RUN[name])
    .map(({ name, version }) => `${name}@${version}`)
  t.same(unreviewed, [], 'approve in package.json allowScripts, or list in scripts/dependencies/install-script-reviews.ts')
})

t.test('each package listed with a reason is recorded as denied in allowScripts, so npm reports it as reviewed', async (t) => {
  const notDenied = Object.keys(INSTALL_SCRIPTS_NOT_RUN).filter((name) => allowScripts[name] !== false)
  t.same(notDenied, [])
})

t.test('allowScripts and the reasons name only packages that have install scripts in the lockfile', async (t) => {
  const withScripts = packagesWithInstallScripts()
  const stale = [
    ...Object.keys(allowScripts).map((key) => key.replace(/(?<=.)@[^@]*$/, '')),
    ...Object.keys(INSTALL_SCRIPTS_NOT_RUN),
  ].filter((name) => !withScripts.has(name))
  t.same(stale, [], 'remove entries for packages no longer installed or without an install script')
})
