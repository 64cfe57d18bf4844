import { parseAbi } from 'viem'

// The contract interfaces onboarding uses. The venue's are declared once, beside the development chain,
// whose tests check them against the compiled contracts.
export { permitUsdcAbi, tradingAbi } from '../../deploy/devnet/abis.ts'

export const erc1271Abi = parseAbi(['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)'])

/** What isValidSignature returns for a valid signature: its own selector. */
export const ERC1271_MAGIC_VALUE = '0x1626ba7e'
