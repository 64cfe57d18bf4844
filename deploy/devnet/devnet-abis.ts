import { parseAbi } from 'viem'

// Interfaces of the development chain's own test contracts (not the venue's).

/** The devnet's tokens can be minted by anyone, so tests can fund any address. */
export const mintableTokenAbi = parseAbi(['function mint(address to, uint256 amount)'])

export const contractWalletAbi = parseAbi([
  'function owner() view returns (address)',
  'function execute(address target, uint256 value, bytes data) payable returns (bytes)',
  'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)',
])

export const sponsoringPaymasterAbi = parseAbi([
  'function deposit() payable',
  'function signer() view returns (address)',
  'function entryPoint() view returns (address)',
])
