import { keccak256, stringToHex } from 'viem'
import { z } from 'zod'
import type { JobQueue } from '../../bus/job-queue.ts'
import { OnboardRequest, type OnboardRejection, type OnboardResponse } from '../../schemas/onboarding.ts'

// The job the intake hands to the relayer: the contract between the two roles.

const Bytes32 = z.string().regex(/^0x[a-fA-F0-9]{64}$/)

export const RelayJobData = z.object({
  request: OnboardRequest,
  /**
   * Written before the user operation is sent: the signed operation (in its JSON-RPC form) and its hash.
   * A worker that finds it resumes that operation instead of building another.
   */
  submission: z
    .object({
      userOpHash: Bytes32,
      userOperation: z.record(z.string(), z.unknown()),
    })
    .optional(),
  /** the UTC day the sponsorship policy admitted it on (its gas is counted on that day) */
  sponsoredOn: z.string().optional(),
  /** the trace context of the intake that queued the job (W3C `traceparent`), so the relayer's spans join its trace */
  trace: z.record(z.string(), z.string()).optional(),
})
export type RelayJobData = z.infer<typeof RelayJobData>
export type Submission = NonNullable<RelayJobData['submission']>

export type RelayJobResult =
  /** the batch landed on chain: confirmed or reverted, the response of spec 4.1 */
  | { kind: 'relayed'; response: OnboardResponse }
  /** simulation found that the batch would revert; nothing was sent */
  | { kind: 'rejected'; rejection: OnboardRejection }
  /** the sponsorship policy would not pay for the operation as estimated; nothing was sent */
  | { kind: 'refused'; refusal: { reason: 'operation_gas'; message: string } }

export type OnboardingQueue = JobQueue<RelayJobData, RelayJobResult>

/**
 * The job id: a hash of the signed content, spelled canonically (lower-case hex, numbers without
 * leading zeros). The same signed request, from any caller or replica, is one job and one operation.
 */
export function onboardingJobId(request: OnboardRequest): string {
  const number = (text: string) => BigInt(text).toString()
  const { delegation, permit } = request
  const canonical = [
    request.chainId,
    request.partner.toLowerCase(),
    delegation && [
      delegation.delegate.toLowerCase(),
      number(delegation.nonce),
      number(delegation.expiry),
      delegation.signature.toLowerCase(),
    ],
    permit && [number(permit.value), number(permit.nonce), number(permit.deadline), permit.signature.toLowerCase()],
  ]
  return keccak256(stringToHex(JSON.stringify(canonical)))
}
