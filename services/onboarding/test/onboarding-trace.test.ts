// One onboarding makes one trace: the intake's span, the job queue hand-off (its context carried in the job's
// data through BullMQ on a real Redis), the relayer's span, and the bundler calls with the receipt, against the
// development chain. Spans are collected in memory.
import t from 'tap'
import { SpanKind } from '@opentelemetry/api'
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { Redis } from 'ioredis'
import { parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { toDeployment } from '../../../deploy/devnet/devnet.ts'
import { startTracing } from '../../../kit/tracing.ts'
import { devnetChain } from '../../../test/support/devnet-chain.ts'
import { readJson } from '../../../test/support/http.ts'
import { startOnboardingStack } from '../../../test/support/onboarding-stack.ts'
import { startRedis } from '../../../test/support/servers.ts'
import { waitFor } from '../../../test/support/wait.ts'
import { onboardingJobId } from '../relay-job.ts'
import { devnetForFile } from '../../../test/support/shared-devnet.ts'

const exporter = new InMemorySpanExporter()
const tracing = startTracing({ serviceName: 'venue-gateway', exporter })
const devnet = await devnetForFile(import.meta.url, { chainIds: [42161] })
const redisServer = await startRedis()
const redis = new Redis(redisServer.url, { maxRetriesPerRequest: null })
const chain = devnetChain(devnet.chain(42161))
const partner = privateKeyToAccount(generatePrivateKey())
const stack = await startOnboardingStack({ deployment: toDeployment(devnet), allowlist: [partner.address], redis })
t.teardown(async () => {
  await stack.stop()
  chain.close()
  await redis.quit()
  await redisServer.dispose()
  await devnet.stop()
  await tracing.shutdown()
})

t.test('intake, queue, relayer, bundler and receipt in one trace', async (t) => {
  const body = await chain.signBothParts(partner, parseUnits('100', 6))
  const response = await fetch(`${stack.baseUrl}/v1/onboard`, { method: 'POST', body: JSON.stringify(body) })
  t.equal(response.status, 200)
  const answer = await readJson(response)
  t.equal(answer.status, 'confirmed')

  const byName = await waitFor(
    () => {
      const spans = new Map(exporter.getFinishedSpans().map((span) => [span.name, span]))
      return spans.has('onboarding intake') && spans.has('onboarding relay') ? spans : undefined
    },
    { what: 'the intake and relay spans' },
  )
  t.same([...byName.keys()].sort(), [
    'bundler estimate user operation',
    'bundler send user operation',
    'bundler user operation receipt',
    'job queue add',
    'onboarding intake',
    'onboarding relay',
  ])
  const span = (name: string) => byName.get(name)!
  const parentOf = (child: ReadableSpan) => child.parentSpanContext?.spanId
  const [intake, enqueue, relay] = [span('onboarding intake'), span('job queue add'), span('onboarding relay')]
  t.equal(new Set([...byName.values()].map((each) => each.spanContext().traceId)).size, 1, 'one trace')
  t.equal(parentOf(intake), undefined, 'the intake is the root')
  t.equal(parentOf(enqueue), intake.spanContext().spanId, 'the hand-off is in the intake')
  t.equal(parentOf(relay), enqueue.spanContext().spanId, 'the relayer continues from the job data')
  t.equal(relay.parentSpanContext?.isRemote, true, 'across the queue, not in-process context')
  for (const name of ['bundler estimate user operation', 'bundler send user operation', 'bundler user operation receipt']) {
    t.equal(parentOf(span(name)), relay.spanContext().spanId, `${name} in the relay`)
    t.equal(span(name).kind, SpanKind.CLIENT)
  }
  t.same([intake.kind, enqueue.kind, relay.kind], [SpanKind.SERVER, SpanKind.PRODUCER, SpanKind.CONSUMER])
  const id = onboardingJobId(body)
  t.equal(enqueue.attributes['onboarding.id'], id)
  t.equal(relay.attributes['onboarding.id'], id)
  t.equal(span('bundler user operation receipt').attributes['user_operation.hash'], answer.userOpHash)
  t.equal(span('bundler user operation receipt').attributes['user_operation.success'], true)
  t.equal(span('bundler user operation receipt').attributes['transaction.hash'], answer.transactionHash)
})
