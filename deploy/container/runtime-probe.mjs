// Probes a running compiled service from inside its root with that root's node (no dependencies, so it runs
// wherever dist/ runs): uWebSockets.js loads natively, /v1/prices answers all 83 pairs, the stream sends its
// snapshot and a tick. Usage, from the app directory: node runtime-probe.mjs PORT
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

const port = Number(process.argv[2])
const base = `http://127.0.0.1:${port}`
const deadline = Date.now() + 30_000

async function until(what, probe) {
  for (;;) {
    const value = await probe().catch(() => undefined)
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((done) => setTimeout(done, 100))
  }
}

const nativeUws = await import(resolve('dist/services/http/native-uws.js'))
const uwsPackage = nativeUws.uwsPackageFor(process.platform, process.arch, process.versions.modules)
const uwsManifest = JSON.parse(readFileSync(resolve('node_modules', uwsPackage, 'package.json'), 'utf8'))
if (!String(nativeUws.loadNativeUws().App).includes('[native code]')) throw new Error('uWebSockets.js is not native')

const prices = await until('83 rows in /v1/prices', async () => {
  const response = await fetch(`${base}/v1/prices`)
  const body = response.status === 200 ? await response.json() : undefined
  return body?.prices.length === 83 ? body.prices : undefined
})

const frames = await new Promise((done, fail) => {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/v1/prices/stream?pairs=BTC-USD`)
  const received = []
  const timer = setTimeout(() => fail(new Error(`no snapshot and tick on the stream: ${JSON.stringify(received)}`)), 10_000)
  socket.onerror = () => fail(new Error('stream connection failed'))
  socket.onmessage = (event) => {
    received.push(JSON.parse(event.data).type)
    if (received.includes('snapshot') && received.includes('tick')) {
      clearTimeout(timer)
      socket.close()
      done(received)
    }
  }
})

console.log(
  JSON.stringify({
    node: process.version,
    abi: process.versions.modules,
    glibc: process.report.getReport().header.glibcVersionRuntime,
    uws: `${uwsPackage} (${uwsManifest.name}@${uwsManifest.version})`,
    prices: prices.length,
    streamFrames: frames,
  }),
)
