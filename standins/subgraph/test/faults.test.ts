// Each fault mode behaves as documented, and the stand-in recovers when the fault is lifted.

import { request } from 'node:http'
import { once } from 'node:events'
import type { Socket } from 'node:net'
import t from 'tap'
import { LAG_SECONDS } from '../index.ts'
import { postGraphql, queryData, startStandin } from './fixtures/standin-client.ts'

const PAIR_QUERY = '{ pairs(first: 2) { id from } }'
const META_QUERY = '{ _meta { block { number timestamp } deployment hasIndexingErrors } }'

/** Resolves with the response, or with 'no answer' when `deadlineMs` passes first. */
async function postWithDeadline(url: string, deadlineMs: number): Promise<Response | 'no answer'> {
  try {
    return await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: PAIR_QUERY }),
      signal: AbortSignal.timeout(deadlineMs),
    })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') return 'no answer'
    throw error
  }
}

t.test('_meta follows the clock it is given: Arbitrum’s four blocks a second, from 300,000,000 at 2025-01-15', async (t) => {
  let nowMs = 1_736_899_200_000
  const standin = await startStandin(t, { clock: () => nowMs })
  const url = standin.url(42161)
  const meta = async () => (await queryData<{ _meta: { block: { number: number; timestamp: number } } }>(url, META_QUERY))._meta.block
  t.strictSame(await meta(), { number: 300_000_000, timestamp: 1_736_899_200 })
  t.strictSame(await meta(), { number: 300_000_000, timestamp: 1_736_899_200 }, 'a pinned clock: the same head every time')
  nowMs += 10_999
  t.strictSame(await meta(), { number: 300_000_040, timestamp: 1_736_899_210 }, 'whole seconds, as block timestamps are')
  standin.setFault('lagging')
  t.strictSame(await meta(), { number: 300_000_040 - LAG_SECONDS * 4, timestamp: 1_736_899_210 - LAG_SECONDS })
})

t.test('fault modes', async (t) => {
  const standin = await startStandin(t)
  const url = standin.url(42161)
  const healthy = {
    pairs: [
      { id: '0', from: 'BTC' },
      { id: '1', from: 'ETH' },
    ],
  }

  t.test('graphql-errors: HTTP 200 with an errors array and no data', async (t) => {
    standin.setFault('graphql-errors')
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: PAIR_QUERY }),
    })
    t.equal(response.status, 200)
    t.strictSame(await response.json(), { errors: [{ message: 'indexing_error' }] })
  })

  t.test('http-500: a plain-text 500 on every chain', async (t) => {
    standin.setFault('http-500')
    for (const chainId of [42161, 421614] as const) {
      const response = await fetch(standin.url(chainId), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: PAIR_QUERY }),
      })
      t.equal(response.status, 500)
      t.equal(await response.text(), 'Internal Server Error')
    }
  })

  t.test('reset-mid-response: headers and half the body, then the connection drops', async (t) => {
    standin.setFault('reset-mid-response')
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: PAIR_QUERY }),
    })
    t.equal(response.status, 200)
    const promised = Number(response.headers.get('content-length'))
    const reader = response.body?.getReader()
    if (!reader) throw new Error('no body')
    let received = 0
    const failure = await (async () => {
      for (;;) {
        const chunk = await reader.read()
        if (chunk.done) return undefined
        received += chunk.value.length
      }
    })().catch((error: unknown) => error)
    t.type(failure, TypeError, 'reading the body fails')
    t.equal(received, Math.floor(promised / 2))
  })

  t.test('hang: no answer, until close() drops the connection', async (t) => {
    const own = await startStandin(t)
    own.setFault('hang')
    t.equal(await postWithDeadline(own.url(42161), 300), 'no answer')

    const pending = request(own.url(42161), { method: 'POST', headers: { 'content-type': 'application/json' } })
    pending.end(JSON.stringify({ query: PAIR_QUERY }))
    const [socket] = (await once(pending, 'socket')) as [Socket]
    if (socket.connecting) await once(socket, 'connect')
    const outcome = once(pending, 'error').then(([error]) => (error as NodeJS.ErrnoException).code)
    await own.close()
    t.equal(await outcome, 'ECONNRESET')
  })

  t.test('lagging: answers normally, _meta reports an old head block', async (t) => {
    standin.setFault('none')
    const before = Math.floor(Date.now() / 1000)
    const current = await queryData<{ _meta: { block: { number: number; timestamp: number } } }>(url, META_QUERY)
    standin.setFault('lagging')
    const lagging = await queryData<{ _meta: { block: { number: number; timestamp: number }; hasIndexingErrors: boolean } }>(
      url,
      META_QUERY,
    )
    // the lagging head is an hour before the moment it was read, which is no later than this
    const after = Math.ceil(Date.now() / 1000)
    t.strictSame(await queryData(url, PAIR_QUERY), healthy)
    t.ok(current._meta.block.timestamp >= before, 'a healthy source is at the chain head')
    t.ok(after - lagging._meta.block.timestamp >= LAG_SECONDS, 'a lagging one is an hour behind')
    t.ok(lagging._meta.block.number < current._meta.block.number)
    t.equal(lagging._meta.hasIndexingErrors, false)
  })

  t.test('none: normal answers again', async (t) => {
    standin.setFault('none')
    const answer = await postGraphql(url, PAIR_QUERY)
    t.strictSame(answer, { status: 200, data: healthy })
  })
})
