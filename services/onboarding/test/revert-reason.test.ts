import t from 'tap'
import { encodeErrorResult, parseAbi } from 'viem'
import { publishedTradingErrorsAbi, tradingAbi } from '../../venue-contracts/abis.ts'
import { explainRevert } from '../relay/revert-reason.ts'

const executeError = parseAbi(['error ExecuteError(uint256 index, bytes returnData)'])
const wrapped = (index: number, data: `0x${string}`) =>
  encodeErrorResult({ abi: executeError, errorName: 'ExecuteError', args: [BigInt(index), data] })
const reasonString = (text: string) => encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: [text] })
const tradingError = (errorName: 'SignatureExpired' | 'InvalidNonce' | 'NullAddr') => encodeErrorResult({ abi: tradingAbi, errorName })

t.test("the published Delegatable's errors are named, with the part whose call failed", async (t) => {
  t.same(explainRevert(wrapped(1, tradingError('SignatureExpired')), ['permit', 'delegation']), {
    reason: 'delegation (Trading.setDelegateWithSignature) reverted: SignatureExpired()',
    part: 'delegation',
    error: 'SignatureExpired',
    args: [],
  })
  t.same(
    explainRevert(tradingError('InvalidNonce'), ['delegation']).reason,
    'delegation (Trading.setDelegateWithSignature) reverted: InvalidNonce()',
  )
  const forbidden = encodeErrorResult({ abi: publishedTradingErrorsAbi, errorName: 'DelegateForbidden' })
  t.equal(explainRevert(forbidden, ['delegation']).error, 'DelegateForbidden')
})

t.test('an unwrapped revert of a batch of two (SimpleAccount v0.7) is placed by its error', async (t) => {
  t.same(explainRevert(tradingError('NullAddr'), ['permit', 'delegation']), {
    reason: 'delegation (Trading.setDelegateWithSignature) reverted: NullAddr()',
    part: 'delegation',
    error: 'NullAddr',
    args: [],
  })
  t.same(explainRevert(reasonString('FiatTokenV2: permit is expired'), ['permit', 'delegation']), {
    reason: 'permit (USDC.permit) reverted: "FiatTokenV2: permit is expired"',
    part: 'permit',
    error: 'Error',
    args: ['FiatTokenV2: permit is expired'],
  })
  t.same(explainRevert('0xdeadbeef', ['permit', 'delegation']), { reason: 'the batch reverted: unknown error 0xdeadbeef (4 bytes)' })
})
