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
export type OnboardRequest = z.infer<typeof OnboardRequest>

export const MissingPart = z.enum(['delegation', 'allowance'])

export const OnboardingState = z.strictObject({
  onboarded: z.boolean(),
  missing: z.array(MissingPart),
  delegate: Address,
  allowance: DecimalString,
})
export type OnboardingState = z.infer<typeof OnboardingState>

export const OnboardResponse = z.strictObject({
  status: z.enum(['confirmed', 'reverted']),
  userOpHash: z.string().regex(/^0x[a-fA-F0-9]{64}$/),
  transactionHash: z.string().regex(/^0x[a-fA-F0-9]{64}$/),
  reason: z.string().optional(),
  state: OnboardingState.optional(),
})
export type OnboardResponse = z.infer<typeof OnboardResponse>
