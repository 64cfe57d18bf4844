import { checksum } from 'ox/Address'
import type { Address } from 'viem'
import { z } from 'zod'
import { parseEnv, type Env } from '../../../kit/env-parsing.ts'
import { SUPPORTED_CHAIN_IDS, type ChainId } from '../../../schemas/common.ts'
import { CANONICAL_ENTRY_POINTS, ENTRY_POINT_VERSIONS, type EntryPointVersion } from '../../venue-contracts/entry-points.ts'
import { SPEC_DELEGATION_DOMAIN, type DelegationDomain, type DevnetDeployment } from '../../venue-contracts/deployment-record.ts'

/** The four contracts onboarding touches on a chain. */
export interface VenueContracts {
  trading: Address
  /** the spender of the partner's permit (or approve) */
  tradingStorage: Address
  usdc: Address
  /** VenueAtomicTrading, the delegate partners sign for */
  wrapper: Address
}

/** The EIP-712 `name` and `version` of USDC's permit domain. */
export interface PermitDomain {
  name: string
  version: string
}

export interface ChainConfig {
  chainId: ChainId
  rpcUrl: string
  /** an ERC-4337 bundler for `entryPoint` (alto or a Pimlico-compatible service) */
  bundlerUrl: string
  /** an ERC-7677 paymaster that sponsors the relayer's operations; the smart account pays when absent */
  paymasterUrl?: string
  /** the `context` sent with every pm_* request (e.g. a sponsorship policy id), when the paymaster wants one */
  paymasterContext?: Record<string, unknown>
  entryPoint: Address
  entryPointVersion: EntryPointVersion
  /** the SimpleAccount factory (for `entryPointVersion`) that deploys the relayer's smart account */
  accountFactory: Address
  contracts: VenueContracts
  /** configured when the token cannot say; read from the token's name() and version() otherwise */
  permitDomain?: PermitDomain
  /** the names in the delegation's signed bytes: the spec's unless the deployment's differ */
  delegationDomain: DelegationDomain
}

/** A JSON object in a variable, e.g. `{"sponsorshipPolicyId":"sp_…"}`. */
const JsonObject = z
  .string()
  .meta({ check: 'a JSON object' }) // the check below is a transform, which the configuration table cannot read
  .transform((text, context) => {
    try {
      const value: unknown = JSON.parse(text)
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
    } catch {
      // reported below
    }
    context.addIssue({ code: 'custom', message: 'must be a JSON object' })
    return z.NEVER
  })

/** An EIP-712 struct type name, e.g. `Delegation`. */
const TypeName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an EIP-712 type name (letters, digits, underscores)')

export const EnvAddress = z
  .string()
  .regex(/^0x[a-fA-F0-9]{40}$/, 'must be 0x followed by 40 hex characters')
  .transform((address) => checksum(address)) // ox: the checksum without loading viem at start

/** CHAIN_<id>_* variables of one chain, e.g. CHAIN_42161_RPC_URL. */
export function chainEnvSchema(chainId: ChainId) {
  const name = (suffix: string) => `CHAIN_${chainId}_${suffix}`
  const contract = (what: string) => EnvAddress.describe(`address of ${what}`)
  return z
    .object({
      [name('RPC_URL')]: z.url().describe("the chain's JSON-RPC URL"),
      [name('BUNDLER_URL')]: z.url().describe('an ERC-4337 bundler serving the EntryPoint'),
      [name('PAYMASTER_URL')]: z
        .url()
        .optional()
        .describe('an ERC-7677 paymaster that sponsors the user operations; the smart account pays when unset'),
      [name('PAYMASTER_CONTEXT')]: JsonObject.optional().describe(
        'a JSON object sent as the `context` of every `pm_*` request (e.g. `{"sponsorshipPolicyId":"sp_…"}`)',
      ),
      [name('ENTRY_POINT_VERSION')]: z
        .enum(ENTRY_POINT_VERSIONS)
        .default('0.8')
        .describe('the EntryPoint and SimpleAccount version of the relaying smart account'),
      [name('ENTRY_POINT')]: EnvAddress.optional().describe(
        "the EntryPoint the smart account uses; that version's canonical one when unset (must have code: checked at start)",
      ),
      [name('ACCOUNT_FACTORY')]: EnvAddress.optional().describe(
        "the factory that deploys the smart account; that version's canonical SimpleAccountFactory when unset (must have code: checked at start)",
      ),
      [name('TRADING')]: contract('the Trading contract'),
      [name('TRADING_STORAGE')]: contract("TradingStorage, the permit's spender"),
      [name('USDC')]: contract('the USDC token'),
      [name('WRAPPER')]: contract('the wrapper, the delegate partners sign for'),
      [name('USDC_PERMIT_NAME')]: z
        .string()
        .min(1)
        .optional()
        .describe("EIP-712 domain name of the token's permit, for tokens without `name()`; read from the token when unset"),
      [name('USDC_PERMIT_VERSION')]: z
        .string()
        .min(1)
        .optional()
        .describe("EIP-712 domain version of the token's permit, for tokens without `version()`; set with the name, or neither"),
      [name('DELEGATION_NAME')]: z
        .string()
        .min(1)
        .default(SPEC_DELEGATION_DOMAIN.name)
        .describe(
          "the delegation's EIP-712 domain name, as Trading was deployed with it; checked against Trading's `DOMAIN_SEPARATOR()` at start where it has one",
        ),
      [name('DELEGATION_VERSION')]: z
        .string()
        .min(1)
        .default(SPEC_DELEGATION_DOMAIN.version)
        .describe("the delegation's EIP-712 domain version, checked with the name"),
      [name('DELEGATION_TYPE')]: TypeName.default(SPEC_DELEGATION_DOMAIN.typeName).describe(
        "the delegation's EIP-712 type name; checked against Trading's `DELEGATION_TYPEHASH()` at start where it has one",
      ),
    })
    .refine((vars) => (vars[name('USDC_PERMIT_NAME')] === undefined) === (vars[name('USDC_PERMIT_VERSION')] === undefined), {
      message: 'set both or neither',
      path: [name('USDC_PERMIT_VERSION')],
    })
    .transform((vars): ChainConfig => {
      const text = (suffix: string) => vars[name(suffix)] as string | undefined
      const address = (suffix: string) => vars[name(suffix)] as Address
      const paymasterUrl = text('PAYMASTER_URL')
      const paymasterContext = vars[name('PAYMASTER_CONTEXT')] as Record<string, unknown> | undefined
      const permitName = text('USDC_PERMIT_NAME')
      const permitVersion = text('USDC_PERMIT_VERSION')
      const entryPointVersion = text('ENTRY_POINT_VERSION') as EntryPointVersion
      const canonical = CANONICAL_ENTRY_POINTS[entryPointVersion]
      return {
        chainId,
        rpcUrl: text('RPC_URL')!,
        bundlerUrl: text('BUNDLER_URL')!,
        ...(paymasterUrl && { paymasterUrl }),
        ...(paymasterContext && { paymasterContext }),
        entryPoint: address('ENTRY_POINT') ?? canonical.entryPoint,
        entryPointVersion,
        accountFactory: address('ACCOUNT_FACTORY') ?? canonical.simpleAccountFactory,
        contracts: {
          trading: address('TRADING'),
          tradingStorage: address('TRADING_STORAGE'),
          usdc: address('USDC'),
          wrapper: address('WRAPPER'),
        },
        ...(permitName && permitVersion && { permitDomain: { name: permitName, version: permitVersion } }),
        delegationDomain: { name: text('DELEGATION_NAME')!, version: text('DELEGATION_VERSION')!, typeName: text('DELEGATION_TYPE')! },
      }
    })
}

/** Every supported chain with at least one CHAIN_<id>_* variable set; all its required ones must be. */
export function chainConfigsFromEnv(env: Env): ChainConfig[] {
  return SUPPORTED_CHAIN_IDS.filter((chainId) => Object.keys(env).some((key) => key.startsWith(`CHAIN_${chainId}_`))).map((chainId) =>
    parseEnv(chainEnvSchema(chainId), env, `chain ${chainId}`),
  )
}

/** The supported chains of a development-chain deployment. */
export function chainConfigsFromDeployment(deployment: DevnetDeployment): ChainConfig[] {
  const supported = new Set<number>(SUPPORTED_CHAIN_IDS)
  return deployment.chains
    .filter((chain) => supported.has(chain.chainId))
    .map((chain) => ({
      chainId: chain.chainId as ChainId,
      rpcUrl: chain.rpcUrl,
      bundlerUrl: chain.bundlerUrl,
      entryPoint: chain.entryPoint,
      entryPointVersion: chain.entryPointVersion,
      accountFactory: chain.accountFactory,
      contracts: chain.contracts,
      delegationDomain: chain.delegationDomain,
    }))
}
