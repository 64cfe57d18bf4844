import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. */
const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Headless Chromium that reaches nothing but what the page asks for (no updates, sync or telemetry). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
  })
}

/** Where browser tests keep their screenshots (ignored by git). */
export function artifactPath(name: string): string {
  const directory = fileURLToPath(new URL('../artifacts/', import.meta.url))
  mkdirSync(directory, { recursive: true })
  return directory + name
}
