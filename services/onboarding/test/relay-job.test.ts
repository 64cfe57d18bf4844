import t from 'tap'
import type { OnboardRequest } from '../../../schemas/onboarding.ts'
import { onboardingJobId } from '../relay-job.ts'

const request: OnboardRequest = {
  chainId: 42161,
  partner: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  delegation: {
    delegate: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
    nonce: '0',
    expiry: '1795001800',
    signature: `0x${'Ab'.repeat(65)}`,
  },
  permit: { value: '100000000', nonce: '0', deadline: '1795001800', signature: `0x${'cd'.repeat(65)}` },
}

t.test('the job id is a hash of the signed content, whatever its spelling', async (t) => {
  const id = onboardingJobId(request)
  t.match(id, /^0x[0-9a-f]{64}$/)
  const respelled: OnboardRequest = {
    ...request,
    partner: request.partner.toLowerCase(),
    delegation: {
      ...request.delegation!,
      delegate: request.delegation!.delegate.toUpperCase().replace('0X', '0x'),
      nonce: '000',
      signature: request.delegation!.signature.toLowerCase(),
    },
    permit: { ...request.permit!, value: '0100000000' },
  }
  t.equal(onboardingJobId(respelled), id, 'case and leading zeros do not matter')
  t.not(
    onboardingJobId({ ...request, permit: { ...request.permit!, signature: `0x${'ce'.repeat(65)}` } }),
    id,
    'another signature is another job',
  )
  const { permit: _, ...delegationOnly } = request
  t.not(onboardingJobId(delegationOnly), id, 'fewer parts is another job')
  t.not(onboardingJobId({ ...request, chainId: 421614 }), id)
})
