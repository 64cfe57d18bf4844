// A load-test report as a person opens it: in headless Chromium, from its file, nothing else loaded.
import type { Browser } from 'playwright-core'

export const CHART_TITLES = [
  'Latency percentiles over time (ms)',
  'Throughput against offered rate (per second)',
  'Latency distribution (whole run)',
]

export interface RenderedChart {
  title: string | null | undefined
  width: number
  /** more than 1,000 pixels painted on its canvas */
  drawn: boolean
}

/** The report's charts once drawn, and any script error on the way; a full-page screenshot when asked for. */
export async function renderedCharts(
  browser: Browser,
  htmlPath: string,
  screenshot?: string,
): Promise<{ errors: string[]; charts: RenderedChart[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  try {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()))
    await page.goto(`file://${htmlPath}`)
    await page.waitForSelector('body[data-charts="drawn"]', { timeout: 10_000 })
    const charts = await page.$$eval('.uplot', (elements) =>
      elements.map((element) => {
        const canvas = element.querySelector('canvas')!
        const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
        let drawn = 0
        for (let at = 3; at < pixels.length; at += 4) if (pixels[at]! > 0) drawn++
        return { title: element.querySelector('.u-title')?.textContent, width: canvas.width, drawn: drawn > 1000 }
      }),
    )
    if (screenshot) await page.screenshot({ path: screenshot, fullPage: true })
    return { errors, charts }
  } finally {
    await page.close()
  }
}
