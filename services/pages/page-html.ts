// The HTML of the pages the edge serves. Everything they load comes from the edge itself.

const NAV = `<nav><a href="/">Live board</a><a href="/docs">REST API</a><a href="/docs/events">Stream and bus</a><a href="/v1/openapi.json">openapi.json</a><a href="/v1/asyncapi.json">asyncapi.json</a></nav>`

const STYLE = `<style>
  body { font: 14px system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f6f7f9 }
  nav { display: flex; gap: 1.25rem; padding: .6rem 1rem; background: #1b1f24 }
  nav a { color: #e6e8eb; text-decoration: none } nav a:hover { text-decoration: underline }
  main { padding: 1rem }
  table { border-collapse: collapse; background: #fff; font-variant-numeric: tabular-nums }
  th, td { padding: .2rem .6rem; border-bottom: 1px solid #e3e5e8; text-align: right } th:first-child, td:first-child { text-align: left }
  tr[data-market=closed] td { color: #8a9099 }
  #status { display: flex; gap: 1.5rem; margin-bottom: .75rem }
  #connection[data-state=live] { color: #137333 } #connection[data-state=reconnecting] { color: #b3261e }
  #feed[data-state=ok] { color: #137333 } #feed[data-state=degraded] { color: #b3261e }
  #outage { margin-bottom: .75rem; padding: .6rem .9rem; background: #fce8e6; border: 1px solid #b3261e; border-radius: 4px; max-width: 60rem }
  #outage strong { color: #b3261e } #outage p { margin: .3rem 0 0 }
  body[data-feed=degraded] #pairs td { color: #8a9099 }
  .layout { display: flex; gap: 1.5rem; align-items: flex-start }
  #events { font-size: 12px; max-height: 80vh; overflow: auto; padding-left: 1.25rem; min-width: 22rem }
  #events .loss, #events .disconnected, #events .error { color: #b3261e }
  pre { background: #fff; padding: .75rem; overflow: auto; border: 1px solid #e3e5e8 }
  section { margin-bottom: 2rem }
  #pairs td a { color: inherit } #chart-note.error { color: #b3261e }
</style>`

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${STYLE}${head}</head><body>${NAV}${body}</body></html>`

export const boardPage = () =>
  page(
    'Live prices',
    `<main>
  <div id="outage" role="alert" hidden><strong>Prices are not live: the feed is degraded</strong><p id="outage-since"></p><p id="outage-affected"></p></div>
  <div id="status"><strong id="connection" data-state="connecting">connecting…</strong>
    <span>feed <b id="feed" data-state="unknown">checking…</b></span>
    <span>reconnects <b id="reconnects">0</b></span><span>gaps <b id="gaps">0</b></span><span>snapshot re-reads <b id="rereads">0</b></span></div>
  <div class="layout">
    <table id="pairs"><thead><tr><th>pair</th><th>bid</th><th>mid</th><th>ask</th><th>market</th><th>last tick</th></tr></thead><tbody></tbody></table>
    <ol id="events" reversed></ol>
  </div>
</main><script type="module" src="/assets/board.js"></script>`,
  )

/** One pair's candles (the board's pair view), drawn from the UDF datafeed; uPlot's stylesheet is served beside its script. */
export const pairPage = () =>
  page(
    'Pair candles',
    `<main>
  <p><a href="/">← all pairs</a></p>
  <h2 id="pair-title">loading…</h2>
  <label>resolution <select id="resolution"><option>1</option><option>5</option><option>15</option><option selected>60</option><option>240</option><option>1D</option></select></label>
  <p id="chart-note"></p>
  <div id="chart"></div>
</main><script type="module" src="/assets/pair.js"></script>`,
    '<link rel="stylesheet" href="/assets/uplot.css">',
  )

export const docsPage = () =>
  page(
    'API reference',
    `<div id="reference"></div><script src="/assets/api-reference.js"></script>
<script>Scalar.createApiReference('#reference', { url: '/v1/openapi.json', withDefaultFonts: false, hideClientButton: true, showDeveloperTools: 'never', defaultOpenAllTags: true, agent: { disabled: true } })</script>`,
  )

const escape = (text: string) => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`)
const json = (value: unknown) => `<pre>${escape(JSON.stringify(value, null, 2))}</pre>`

export interface AsyncApiView {
  info: { title: string; description: string }
  servers: Record<string, { host: string; protocol: string; description: string }>
  channels: Record<string, { address: string; title: string; description: string; messages: Record<string, { $ref: string }> }>
  operations: Record<string, { action: string; title: string; channel: { $ref: string } }>
  components: {
    messages: Record<string, { title: string; payload: { $ref: string }; examples: Array<{ payload: unknown }> }>
    schemas: Record<string, unknown>
  }
}

const last = (ref: string) => ref.split('/').pop()!

/** The AsyncAPI document as a page: servers, channels with their messages, payload schemas and examples. */
export function eventsPage(document: AsyncApiView): string {
  const { components } = document
  const channels = Object.entries(document.channels).map(([id, channel]) => {
    const operations = Object.values(document.operations).filter((operation) => last(operation.channel.$ref) === id)
    const messages = Object.values(channel.messages).map((ref) => {
      const message = components.messages[last(ref.$ref)]!
      const schema = last(message.payload.$ref)
      return `<h4>${escape(message.title)} <small>(${schema})</small></h4><details><summary>payload schema</summary>${json(components.schemas[schema])}</details>${json(message.examples[0]?.payload)}`
    })
    return `<section id="${id}"><h2><code>${escape(channel.address)}</code> ${escape(channel.title)}</h2>
<p>${operations.map((operation) => `<b>${operation.action}</b> ${escape(operation.title)}`).join('<br>')}</p>
<p style="white-space: pre-line">${escape(channel.description)}</p>${messages.join('')}</section>`
  })
  const servers = Object.entries(document.servers)
    .map(([id, server]) => `<li><b>${id}</b>: ${server.protocol}://${escape(server.host)}, ${escape(server.description)}</li>`)
    .join('')
  return page(
    escape(document.info.title),
    `<main><h1>${escape(document.info.title)}</h1><p>${escape(document.info.description)}</p><ul>${servers}</ul>${channels.join('')}</main>`,
  )
}
