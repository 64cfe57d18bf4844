import { createServer } from 'node:http'
import {
  concat,
  encodeAbiParameters,
  encodePacked,
  hexToBigInt,
  isAddressEqual,
  keccak256,
  numberToHex,
  pad,
  type Address,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { listenOnLoopback } from './loopback-http.ts'

// An ERC-7677 paymaster service for the development chain's SponsoringPaymaster (deploy/devnet/contracts), as
// paymaster services run one: pm_getPaymasterStubData answers the paymaster fields with a stub signature for gas
// estimation; pm_getPaymasterData signs the operation as estimated. Both take [userOperation, entryPoint, chainId,
// context] and refuse (JSON-RPC -32602) another EntryPoint or chain, or a context without the policy id.

export interface PaymasterServerOptions {
  paymaster: Address
  entryPoint: Address
  chainId: number
  /** the key of the paymaster contract's `signer` */
  signerKey: Hex
  /** the `context.sponsorshipPolicyId` every request must carry */
  policyId: string
}

export interface PaymasterServer {
  url: string
  /** the pm_* method of every request, in order */
  methods: string[]
  close(): Promise<void>
}

/** The RPC form of a v0.7/v0.8 user operation, as viem sends it to pm_* methods. */
interface RpcUserOperation {
  sender: Address
  nonce: Hex
  factory?: Address
  factoryData?: Hex
  callData: Hex
  callGasLimit: Hex
  verificationGasLimit: Hex
  preVerificationGas: Hex
  maxFeePerGas: Hex
  maxPriorityFeePerGas: Hex
  paymasterVerificationGasLimit?: Hex
  paymasterPostOpGasLimit?: Hex
}

const VERIFICATION_GAS = 100_000n
const POST_OP_GAS = 0n
const VALID_FOR_SECONDS = 3600
const STUB_SIGNATURE: Hex = `0x${'11'.repeat(32)}${'22'.repeat(32)}1b`

export async function startPaymasterServer(options: PaymasterServerOptions): Promise<PaymasterServer> {
  const signer = privateKeyToAccount(options.signerKey)
  const methods: string[] = []

  const answer = async (method: string, params: unknown[]): Promise<unknown> => {
    const [userOperation, entryPoint, chainId, context] = params as [
      RpcUserOperation,
      Address,
      Hex,
      { sponsorshipPolicyId?: string } | undefined,
    ]
    if (!isAddressEqual(entryPoint, options.entryPoint)) throw refusal(`EntryPoint ${entryPoint} is not served`)
    if (hexToBigInt(chainId) !== BigInt(options.chainId)) throw refusal(`chain ${chainId} is not served`)
    if (context?.sponsorshipPolicyId !== options.policyId) throw refusal('no such sponsorship policy')
    const validUntil = Math.floor(Date.now() / 1000) + VALID_FOR_SECONDS
    if (method === 'pm_getPaymasterStubData') {
      return {
        paymaster: options.paymaster,
        paymasterData: paymasterData(validUntil, STUB_SIGNATURE),
        paymasterVerificationGasLimit: numberToHex(VERIFICATION_GAS),
        paymasterPostOpGasLimit: numberToHex(POST_OP_GAS),
        isFinal: false,
      }
    }
    const hash = sponsoredHash(userOperation, options, validUntil)
    const signature = await signer.signMessage({ message: { raw: hash } })
    return { paymaster: options.paymaster, paymasterData: paymasterData(validUntil, signature) }
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const call = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown; method: string; params?: unknown[] }
      methods.push(call.method)
      const known = call.method === 'pm_getPaymasterStubData' || call.method === 'pm_getPaymasterData'
      const result = known
        ? answer(call.method, call.params ?? [])
        : Promise.reject(Object.assign(new Error(`the method ${call.method} does not exist`), { code: -32601 }))
      void result.then(
        (value) => reply(response, { jsonrpc: '2.0', id: call.id, result: value }),
        (error: Error & { code?: number }) =>
          reply(response, { jsonrpc: '2.0', id: call.id, error: { code: error.code ?? -32603, message: error.message } }),
      )
    })
  })
  return { ...(await listenOnLoopback(server)), methods }
}

function reply(response: import('node:http').ServerResponse, body: unknown) {
  response.setHeader('content-type', 'application/json')
  response.end(JSON.stringify(body))
}

function refusal(message: string) {
  return Object.assign(new Error(message), { code: -32602 })
}

/** validUntil and validAfter (6 bytes each, validAfter 0), then the signature. */
function paymasterData(validUntil: number, signature: Hex): Hex {
  return encodePacked(['uint48', 'uint48', 'bytes'], [validUntil, 0, signature])
}

/** SponsoringPaymaster.sponsoredHash for the operation as it will be sent. */
function sponsoredHash(op: RpcUserOperation, options: PaymasterServerOptions, validUntil: number): Hex {
  const packTwo = (high: Hex | bigint, low: Hex | bigint) =>
    concat([pad(numberToHex(BigInt(high)), { size: 16 }), pad(numberToHex(BigInt(low)), { size: 16 })])
  const initCode = op.factory ? concat([op.factory, op.factoryData ?? '0x']) : '0x'
  const paymasterGas = hexToBigInt(
    packTwo(op.paymasterVerificationGasLimit ?? numberToHex(VERIFICATION_GAS), op.paymasterPostOpGasLimit ?? numberToHex(POST_OP_GAS)),
  )
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'uint48' },
        { type: 'uint48' },
      ],
      [
        op.sender,
        hexToBigInt(op.nonce),
        keccak256(initCode),
        keccak256(op.callData),
        packTwo(op.verificationGasLimit, op.callGasLimit),
        paymasterGas,
        hexToBigInt(op.preVerificationGas),
        packTwo(op.maxPriorityFeePerGas, op.maxFeePerGas),
        BigInt(options.chainId),
        options.paymaster,
        validUntil,
        0,
      ],
    ),
  )
}
