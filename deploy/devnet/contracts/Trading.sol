// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {TradingStorage} from "./TradingStorage.sol";

/// @notice The venue's entry point for traders, reduced to what onboarding touches: a trader lets one delegate
/// act for it, directly or by an EIP-712 `VenueDelegation` signature that anyone may relay. Setting and removing a
/// delegate both bump the trader's nonce, which invalidates signatures made before.
contract Trading is EIP712 {
    bytes32 public constant DELEGATION_TYPEHASH =
        keccak256("VenueDelegation(address delegator,address delegate,uint256 nonce,uint256 expiry)");

    TradingStorage public immutable tradingStorage;
    mapping(address trader => address delegate) public delegations;
    mapping(address trader => uint256 nonce) public delegatableNonces;

    event DelegateSet(address indexed delegator, address indexed delegate, uint256 nonce);
    event DelegateRemoved(address indexed delegator, address indexed previousDelegate, uint256 nonce);
    event CollateralDeposited(address indexed trader, address indexed caller, uint256 amount);

    error DelegationExpired(uint256 expiry, uint256 blockTimestamp);
    error InvalidNonce(uint256 expected, uint256 provided);
    error InvalidSignature();
    error ZeroDelegate();
    error NotTraderOrDelegate(address caller, address trader);

    constructor(IERC20 collateralToken) EIP712("Venue", "1") {
        tradingStorage = new TradingStorage(collateralToken);
    }

    function setDelegate(address delegate) external {
        _setDelegate(msg.sender, delegate);
    }

    function removeDelegate() external {
        address previousDelegate = delegations[msg.sender];
        delete delegations[msg.sender];
        emit DelegateRemoved(msg.sender, previousDelegate, delegatableNonces[msg.sender]++);
    }

    /// @dev The signature is recovered with ecrecover, so only externally owned accounts can delegate this way.
    function setDelegateWithSignature(
        address delegator,
        address delegate,
        uint256 nonce,
        uint256 expiry,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        if (block.timestamp > expiry) revert DelegationExpired(expiry, block.timestamp);
        uint256 expectedNonce = delegatableNonces[delegator];
        if (nonce != expectedNonce) revert InvalidNonce(expectedNonce, nonce);
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(DELEGATION_TYPEHASH, delegator, delegate, nonce, expiry)));
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(digest, v, r, s);
        if (recoverError != ECDSA.RecoverError.NoError || signer != delegator) revert InvalidSignature();
        _setDelegate(delegator, delegate);
    }

    /// @notice Moves `amount` of the trader's USDC into TradingStorage, using the allowance the trader gave it.
    function depositCollateral(address trader, uint256 amount) external {
        if (msg.sender != trader && msg.sender != delegations[trader]) revert NotTraderOrDelegate(msg.sender, trader);
        tradingStorage.pullCollateral(trader, amount);
        emit CollateralDeposited(trader, msg.sender, amount);
    }

    function _setDelegate(address delegator, address delegate) private {
        if (delegate == address(0)) revert ZeroDelegate();
        delegations[delegator] = delegate;
        emit DelegateSet(delegator, delegate, delegatableNonces[delegator]++);
    }
}
