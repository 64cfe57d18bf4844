import { erc20Abi, parseAbi } from 'viem'

// The parts of the venue's contracts that onboarding uses, as a relayer would declare them (typed for viem).
// The development chain (deploy/devnet) deploys contracts compiled from its Solidity sources; its test checks
// that these ABIs match them.

export const tradingAbi = parseAbi([
  'function delegatableNonces(address delegator) view returns (uint256)',
  'function delegations(address delegator) view returns (address)',
  'function setDelegate(address delegate)',
  'function removeDelegate()',
  'function setDelegateWithSignature(address delegator, address delegate, uint256 nonce, uint256 expiry, uint8 v, bytes32 r, bytes32 s)',
  'function DELEGATION_TYPEHASH() view returns (bytes32)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function tradingStorage() view returns (address)',
  'event DelegateAdded(address indexed delegator, address indexed delegate)',
  'event DelegateRemoved(address indexed delegator, address indexed delegate)',
  'error NullAddr()',
  'error SignatureExpired()',
  'error InvalidNonce()',
  'error InvalidSignature()',
  'error NoDelegate(address caller)',
  'error NotDelegate(address trader, address caller)',
])

/**
 * Every error of the venue's published `Delegatable` (the signature-delegation version, `IDelegatable.sol`)
 * and of its Trading contract's other entry points, for naming a revert in `reason`.
 */
export const publishedTradingErrorsAbi = parseAbi([
  'error DelegateReentrant()',
  'error InvalidCallData()',
  'error DelegateForbidden()',
  'error DelegatedActionFailed()',
  'error IsContract(address a)',
  'error IsDone()',
  'error IsPaused()',
  'error WrongParams()',
])

/** USDC as on chain 42161: ERC-20 plus ERC-2612 with FiatToken's `bytes signature` overload for contract wallets. */
export const permitUsdcAbi = [
  ...erc20Abi,
  ...parseAbi([
    'function version() view returns (string)',
    'function nonces(address owner) view returns (uint256)',
    'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
    'function permit(address owner, address spender, uint256 value, uint256 deadline, bytes signature)',
  ]),
] as const

export const wrapperAbi = parseAbi(['function trading() view returns (address)', 'function depositCollateral(uint256 amount)'])

export const tradingStorageAbi = parseAbi([
  'function collateralOf(address trader) view returns (uint256)',
  'error OnlyTrading(address caller)',
])

export const erc1271Abi = parseAbi(['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)'])

/** What isValidSignature returns for a valid signature: its own selector. */
export const ERC1271_MAGIC_VALUE = '0x1626ba7e'
