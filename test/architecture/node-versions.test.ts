// The Node versions the service supports are the ones package.json's engines names, the docs state and the
// runs test: the suite's own Node is one of them, the image's Node line is one of them, and every production
// dependency declares that line supported.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import semver from 'semver'
import t from 'tap'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')
const manifest = JSON.parse(read('package.json')) as { engines: { node: string } }
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { version?: string; dev?: boolean; engines?: { node?: string } | string[] }>
}
const supported = manifest.engines.node
/** the Node line of the container image's runtime stage (deploy/container/Dockerfile: `FROM node:22-...`) */
const imageMajor = Number(/^FROM node:(\d+)-\S+\s*$/m.exec(read('deploy/container/Dockerfile'))?.[1])

t.test('this run is on a supported Node', async (t) => {
  t.ok(semver.satisfies(process.version, supported), `${process.version} satisfies ${supported}`)
})

t.test("the image's Node line is supported, and every production dependency declares it supported", async (t) => {
  t.equal(imageMajor, 22)
  // the lowest release of the line that engines admits
  const imageFloor = semver.minVersion(
    semver.validRange(`${supported.split('||').find((part) => semver.intersects(part, `^${imageMajor}.0.0`))}`)!,
  )
  t.ok(imageFloor && semver.major(imageFloor) === imageMajor, `engines admits Node ${imageMajor}`)
  const refusing = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.dev)
    .flatMap(([path, entry]) => {
      const declared = Array.isArray(entry.engines) ? undefined : entry.engines?.node
      return declared && !semver.subset(`^${imageFloor!.version}`, declared, { includePrerelease: true }) ? [`${path}: ${declared}`] : []
    })
  t.same(refusing, [], `every production dependency supports Node ^${imageFloor!.version}`)
})

t.test('the README and the operations guide name the range engines names', async (t) => {
  t.match(read('README.md'), supported)
  t.match(read('docs/operations.md'), supported)
})
