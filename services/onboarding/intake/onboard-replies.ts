import { ServiceError } from '../../../kit/errors.ts'
import type { JobRecord } from '../../../bus/job-queue.ts'
import type { OnboardPending } from '../../../schemas/onboarding.ts'
import { jsonReply, type Reply } from '../../http/reply.ts'
import type { RelayJobData, RelayJobResult } from '../relay-job.ts'

/** Polling clients are asked to wait this long between GET /v1/onboard/{id} requests. */
export const POLL_AFTER_SECONDS = 2

/**
 * What the client gets for an onboarding job as it stands: the outcome (200, `reverted` included), the
 * simulation's refusal (400: the request can never succeed as signed), the sponsorship policy's refusal of
 * the operation as estimated (403), the relay's failure (500), or,
 * while it runs, 202 with where to poll.
 */
export function replyForOnboarding(record: JobRecord<RelayJobData, RelayJobResult>): Reply {
  if (record.state === 'completed' && record.result) {
    const { result } = record
    if (result.kind === 'relayed') return jsonReply(200, result.response)
    if (result.kind === 'refused')
      throw new ServiceError('forbidden', result.refusal.message, { details: { reason: result.refusal.reason } })
    const { rejection } = result
    throw new ServiceError('onboarding_rejected', `the onboarding cannot succeed as signed, so it was not sent: ${rejection.reason}`, {
      issues: [{ code: 'custom', path: rejection.part ? [rejection.part] : [], message: rejection.reason }],
      details: rejection,
    })
  }
  if (record.state === 'failed') {
    throw new ServiceError('relay_failed', 'the onboarding could not be relayed; post the same request again to retry it', {
      details: { id: record.id },
    })
  }
  const userOpHash = record.data.submission?.userOpHash
  const pending: OnboardPending = { status: 'pending', id: record.id, ...(userOpHash && { userOpHash }) }
  return jsonReply(202, pending, { location: `/v1/onboard/${record.id}`, 'retry-after': String(POLL_AFTER_SECONDS) })
}
