import { getAddress, hexToBigInt, keccak256, slice, stringToHex, type Hex } from 'viem'
import type { UserOperationReceipt } from 'viem/account-abstraction'
import { estimationRevertData, userOperationRevertData } from '../../venue-contracts/user-operation-revert.ts'
import type { RunningJob } from '../../../bus/job-queue.ts'
import type { Logger } from '../../../kit/logger.ts'
import type { OnboardResponse } from '../../../schemas/onboarding.ts'
import type { RelayJobData, RelayJobResult, Submission } from '../relay-job.ts'
import { onboardingBatch, type Batch } from './batch-calls.ts'
import type { ChainRelayer } from './chain-relayer.ts'
import { describeError } from './relay-errors.ts'
import { explainRevert } from './revert-reason.ts'
import { readOnboardingState } from '../chain/read-back.ts'
import { inSpan, SpanKind } from '../../../kit/tracing.ts'
import type { SponsorshipCeilings } from '../config.ts'
import type { SponsorshipLedger } from '../sponsorship-ledger.ts'
import { operationGasLimit, operationGasRefusal } from './operation-gas.ts'

/** The sponsorship policy's relayer half: the per-operation ceiling, and the day's gas to settle. */
export interface Sponsorship {
  ledger: SponsorshipLedger
  ceilings: SponsorshipCeilings
}

/**
 * Relays one onboarding as one user operation and returns its outcome. Crash-safe: the signed operation
 * is written into the job before it is sent, and an attempt that finds it there (after a crash or a
 * failed attempt) looks for that operation's receipt instead of building another. Each job has a nonce
 * key of its own, derived from its id, so the EntryPoint lets at most one operation of the job land,
 * however often it is handed to the bundler.
 */
export async function relayOnboarding(
  job: RunningJob<RelayJobData>,
  data: RelayJobData,
  relayer: ChainRelayer,
  sponsorship: Sponsorship,
  log: Logger,
): Promise<RelayJobResult> {
  const batch = onboardingBatch(data.request, relayer.connection.config.contracts)
  // the gas the intake held for this onboarding, to settle against what it used (jobs queued before the policy hold none)
  const held = data.sponsoredOn ? sponsorship.ceilings.gasPerOperation : 0
  const settle = (gasUsed: bigint) =>
    data.sponsoredOn ? sponsorship.ledger.settle(data.request.chainId, data.sponsoredOn, Number(gasUsed) - held) : Promise.resolve()
  let submission = data.submission
  if (submission) {
    log.info({ userOpHash: submission.userOpHash }, 'resuming a submitted user operation')
    const receipt = await landedReceipt(relayer, submission)
    if (receipt) return relayed(relayer, data, batch, await settled(receipt, settle), log)
  } else {
    const prepared = await prepareOrRefuse(relayer, batch, nonceKeyOf(job.id))
    if ('rejection' in prepared) {
      log.info({ reason: prepared.rejection.reason }, 'onboarding refused by simulation, nothing sent')
      await settle(0n)
      return { kind: 'rejected', rejection: prepared.rejection }
    }
    const gas = operationGasLimit(prepared.userOperation)
    if (gas > BigInt(sponsorship.ceilings.gasPerOperation)) {
      log.warn(
        { gas: String(gas), ceiling: sponsorship.ceilings.gasPerOperation },
        'onboarding not sponsored: operation gas above the ceiling, nothing sent',
      )
      await settle(0n)
      return { kind: 'refused', refusal: operationGasRefusal(gas, sponsorship.ceilings) }
    }
    submission = prepared
    // From here on a crash resumes this very operation.
    await job.updateData({ ...data, submission })
  }
  const userOpHash = submission.userOpHash as Hex
  await inSpan('bundler send user operation', { kind: SpanKind.CLIENT, attributes: { 'user_operation.hash': userOpHash } }, () =>
    relayer.submit(submission),
  )
  log.info({ userOpHash }, 'user operation sent')
  const receipt = await inSpan(
    'bundler user operation receipt',
    { kind: SpanKind.CLIENT, attributes: { 'user_operation.hash': userOpHash } },
    async (span) => {
      const landed = await relayer.waitForReceipt(userOpHash)
      span.setAttributes({ 'user_operation.success': landed.success, 'transaction.hash': landed.receipt.transactionHash })
      return landed
    },
  )
  return relayed(relayer, data, batch, await settled(receipt, settle), log)
}

/** Counts the gas the landed operation used (the EntryPoint's actualGasUsed) against the day's ceiling. */
async function settled(receipt: UserOperationReceipt, settle: (gasUsed: bigint) => Promise<void>): Promise<UserOperationReceipt> {
  await settle(receipt.actualGasUsed)
  return receipt
}

/** A 192-bit EntryPoint nonce key per job: concurrent onboardings never wait on each other's nonces. */
function nonceKeyOf(jobId: string): bigint {
  return hexToBigInt(slice(keccak256(stringToHex(jobId)), 0, 24))
}

async function prepareOrRefuse(relayer: ChainRelayer, batch: Batch, nonceKey: bigint) {
  try {
    return await inSpan('bundler estimate user operation', { kind: SpanKind.CLIENT }, () => relayer.prepare(batch.calls, nonceKey))
  } catch (error) {
    // the bundler's simulation reverted (JSON-RPC -32521): an answer for the client, not a failure to retry
    const revertData = estimationRevertData(error)
    if (revertData === undefined) throw error
    return { rejection: explainRevert(revertData, batch.parts) }
  }
}

/** The receipt of an operation that has landed; undefined when it has not (it may still be pending). */
async function landedReceipt(relayer: ChainRelayer, submission: Submission) {
  const hash = submission.userOpHash as Hex
  const receipt = await relayer.findReceipt(hash)
  if (receipt) return receipt
  // its nonce used means it landed and the bundler has not indexed it yet
  return (await relayer.nonceUsed(submission)) ? relayer.waitForReceipt(hash) : undefined
}

async function relayed(
  relayer: ChainRelayer,
  data: RelayJobData,
  batch: Batch,
  receipt: UserOperationReceipt,
  log: Logger,
): Promise<RelayJobResult> {
  const { config, publicClient } = relayer.connection
  const state = await readOnboardingState(publicClient, config, getAddress(data.request.partner)).catch((error: unknown) => {
    log.warn({ error: describeError(error) }, 'onboarding state could not be read back')
    return undefined
  })
  const response: OnboardResponse = {
    status: receipt.success ? 'confirmed' : 'reverted',
    userOpHash: receipt.userOpHash,
    transactionHash: receipt.receipt.transactionHash,
    ...(!receipt.success && { reason: explainRevert(userOperationRevertData(receipt) ?? '0x', batch.parts).reason }),
    ...(state && { state }),
  }
  return { kind: 'relayed', response }
}
