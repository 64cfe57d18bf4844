import type { Address } from 'viem'

// The ERC-4337 EntryPoint versions the relayer can use, at their canonical addresses, with the SimpleAccount
// factory built for each (the addresses permissionless uses by default).

export type EntryPointVersion = '0.7' | '0.8'

export const ENTRY_POINT_VERSIONS = ['0.7', '0.8'] as const satisfies readonly EntryPointVersion[]

export const CANONICAL_ENTRY_POINTS: Record<EntryPointVersion, { entryPoint: Address; simpleAccountFactory: Address }> = {
  '0.7': {
    entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
    simpleAccountFactory: '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985',
  },
  '0.8': {
    entryPoint: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
    simpleAccountFactory: '0x13E9ed32155810FDbd067D4522C492D6f68E5944',
  },
}
