import type { SponsorshipCeilings } from '../config.ts'

// The relayer's half of the sponsorship policy (the intake's is sponsorship-policy.ts): an operation estimated
// above the per-operation gas ceiling is refused before it is sent.

/** The gas a user operation may be given at most: every gas limit it carries, summed. */
export function operationGasLimit(userOperation: Record<string, unknown>): bigint {
  const fields = ['callGasLimit', 'verificationGasLimit', 'preVerificationGas', 'paymasterVerificationGasLimit', 'paymasterPostOpGasLimit']
  return fields.reduce((sum, field) => sum + BigInt((userOperation[field] as string | undefined) ?? 0), 0n)
}

/** The relayer's refusal of an operation estimated above the per-operation ceiling: 403, nothing sent. */
export function operationGasRefusal(gas: bigint, ceilings: SponsorshipCeilings) {
  return {
    reason: 'operation_gas' as const,
    message: `the operation would be given ${gas} gas, above the ${ceilings.gasPerOperation} one sponsored operation may be given; nothing was sent`,
  }
}
