import t from 'tap'
import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem'
import { describeError, isAlreadyKnown, isPermanent } from '../relay/relay-errors.ts'

const rpcError = (code: number, message: string) =>
  new RpcRequestError({
    body: { method: 'eth_sendUserOperation', params: ['0xsecret-signature'] },
    error: { code, message },
    url: 'https://bundler.example/?apikey=secret',
  })

t.test('permanent: account and paymaster validation, bad requests', async (t) => {
  t.ok(isPermanent(rpcError(-32500, "UserOperation reverted during simulation with reason: AA21 didn't pay prefund")))
  t.ok(isPermanent(rpcError(-32507, 'AA24 signature error')))
  t.ok(isPermanent(rpcError(-32602, 'invalid user operation: missing field callData')))
  t.ok(isPermanent(rpcError(-32601, 'the method eth_sendUserOperation does not exist')))
})

t.test('transient: the network, the node, races of one account, fees that moved', async (t) => {
  t.notOk(isPermanent(new HttpRequestError({ url: 'https://bundler.example', status: 503 })))
  t.notOk(isPermanent(new TimeoutError({ body: {}, url: 'https://bundler.example' })))
  t.notOk(isPermanent(rpcError(-32603, 'internal error')))
  t.notOk(
    isPermanent(
      rpcError(
        -32602,
        'AA25 invalid account nonce: Maximum number of parallel user operations for that is allowed for this sender reached',
      ),
    ),
  )
  t.notOk(
    isPermanent(
      rpcError(
        -32602,
        'AA10 sender already constructed: A conflicting userOperation with initCode for this sender is already in the mempool',
      ),
    ),
  )
  t.notOk(isPermanent(rpcError(-32602, 'maxPriorityFeePerGas must be at least 1000000 (current maxPriorityFeePerGas: 10)')))
  t.notOk(isPermanent(new Error('socket hang up')))
})

t.test('an operation the bundler holds already is pending, not failed', async (t) => {
  t.ok(isAlreadyKnown(rpcError(-32602, 'Already known')))
  t.notOk(isAlreadyKnown(rpcError(-32602, 'AA25 invalid account nonce')))
})

t.test('descriptions carry the cause, not request bodies or URLs', async (t) => {
  const description = describeError(rpcError(-32500, "AA21 didn't pay prefund"))
  t.equal(description, "JSON-RPC error -32500: AA21 didn't pay prefund")
  t.equal(
    describeError(new HttpRequestError({ url: 'https://rpc.example/?apikey=secret', status: 429 })),
    'HTTP request failed with status 429',
  )
  for (const error of [rpcError(-32603, 'x'), new HttpRequestError({ url: 'https://rpc.example/?apikey=secret' })]) {
    t.notMatch(describeError(error), /secret/)
  }
})
