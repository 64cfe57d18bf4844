import { z } from 'zod'
import { Address, ChainId, DecimalString, Uint256String } from './common.ts'

// Spec 4.1, 2.5 and 3.1: the gasless onboarding relay.

export const Delegation = z.strictObject({
  /** must equal the chain's wrapper contract (VenueAtomicTrading); checked against configuration */
  delegate: Address,
  nonce: Uint256String,
  expiry: Uint256String,
  signature: z.string().regex(/^0x[a-fA-F0-9]{130}$/, 'must be a 65-byte hex signature'),
})

export const Permit = z.strictObject({
  value: Uint256String,
  nonce: Uint256String,
  deadline: Uint256String,
  signature: z.string().regex(/^0x([a-fA-F0-9]{2})+$/, 'must be hex bytes'),
})

/** Spec 4.1: chain 421614's test token has no permit, so a permit is refused there. */
export const permitAllowedOn = (chainId: number) => chainId !== 421614

export const OnboardRequest = z
  .strictObject({
    chainId: ChainId,
    partner: Address,
    delegation: Delegation.optional(),
    permit: Permit.optional(),
  })
  .refine((body) => body.delegation !== undefined || body.permit !== undefined, {
    message: 'send delegation, permit or both',
    path: ['delegation'],
  })
  .refine((body) => !(body.permit && !permitAllowedOn(body.chainId)), {
    message: "chain 421614's test token has no permit: approve TradingStorage from the wallet and send only delegation",
    path: ['permit'],
  })
export type OnboardRequest = z.infer<typeof OnboardRequest>

export const MissingPart = z.enum(['delegation', 'allowance'])

export const OnboardingState = z.strictObject({
  onboarded: z.boolean(),
  missing: z.array(MissingPart),
  delegate: Address,
  allowance: DecimalString,
})
export type OnboardingState = z.infer<typeof OnboardingState>

const Bytes32 = z.string().regex(/^0x[a-fA-F0-9]{64}$/)

export const OnboardResponse = z.strictObject({
  status: z.enum(['confirmed', 'reverted']),
  userOpHash: Bytes32,
  transactionHash: Bytes32,
  reason: z.string().optional(),
  state: OnboardingState.optional(),
})
export type OnboardResponse = z.infer<typeof OnboardResponse>

// Designed beyond the spec (see services/onboarding/README.md).

/** The id of an onboarding: a hash of its signed content, so the same request is the same onboarding. */
export const OnboardingId = z.string().regex(/^0x[a-f0-9]{64}$/, 'must be 0x followed by 64 lower-case hex characters')

/** 202 from `POST /v1/onboard` when the deadline passed first, and from `GET /v1/onboard/{id}` until the outcome. */
export const OnboardPending = z.strictObject({
  status: z.literal('pending'),
  id: OnboardingId,
  /** once the user operation has been sent */
  userOpHash: Bytes32.optional(),
})
export type OnboardPending = z.infer<typeof OnboardPending>

/** `details` of the 400 for an onboarding that can never succeed as signed: simulation found the batch reverts, nothing was sent. */
export const OnboardRejection = z.strictObject({
  reason: z.string(),
  /** the part whose call failed, when the revert names it */
  part: z.enum(['delegation', 'permit']).optional(),
  /** the contract error's name ("Error" for a reason string) and its arguments as strings */
  error: z.string().optional(),
  args: z.array(z.string()).optional(),
})
export type OnboardRejection = z.infer<typeof OnboardRejection>
