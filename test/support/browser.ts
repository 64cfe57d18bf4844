import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserServer, type LaunchOptions } from 'playwright-core'

/** Debian's Chromium (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. */
const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** Set by the test runner (test/run.ts) when it started one Chromium for every file of the run. */
export const SHARED_BROWSER_ENV = 'TEST_BROWSER_ENDPOINT'

/** Headless Chromium that reaches nothing but what the page asks for (no updates, sync or telemetry). */
const LAUNCH: LaunchOptions = {
  executablePath: EXECUTABLE,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
}

/**
 * A Chromium for the calling test file: a connection to the run's shared one when the runner started it (each
 * file's pages in contexts of their own; `close()` ends the connection and those contexts, not the browser),
 * else one of the file's own.
 */
export function launchChromium(): Promise<Browser> {
  const shared = process.env[SHARED_BROWSER_ENV]
  return shared ? chromium.connect(shared) : chromium.launch(LAUNCH)
}

/** The run's shared Chromium, which test files reach through SHARED_BROWSER_ENV. */
export function launchSharedChromium(): Promise<BrowserServer> {
  return chromium.launchServer(LAUNCH)
}

/** Where browser tests keep their screenshots (ignored by git). */
export function artifactPath(name: string): string {
  const directory = fileURLToPath(new URL('../artifacts/', import.meta.url))
  mkdirSync(directory, { recursive: true })
  return directory + name
}
