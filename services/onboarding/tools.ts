// What the load test, the demo and the tests use of onboarding beside the service itself: chain clients and
// checks, the typed data a partner signs, the job id, the queue, the ledger and the relayer. Reached through
// index.ts's onboardingTools(), so that the service's start, which imports index.ts, loads viem, BullMQ and
// permissionless only when it relays.
export { checkChains } from './chain/chain-checks.ts'
export { createChainClients } from './chain/chain-clients.ts'
export { readPermitDomain } from './chain/permit-domain.ts'
export { delegationTypedData, permitTypedData } from './chain/typed-data.ts'
export { createOnboardingQueue } from './onboarding-queue.ts'
export { onboardingJobId } from './relay-job.ts'
export { startRelayer } from './relay/relayer.ts'
export { createSponsorshipLedger } from './sponsorship-ledger.ts'
