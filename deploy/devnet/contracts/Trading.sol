// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {TradingStorage} from "./TradingStorage.sol";

/// @notice The venue's entry point for traders, reduced to what onboarding touches, with the delegation interface,
/// errors and events of the venue's published Delegatable: a trader lets one delegate act for it, directly or by an
/// EIP-712 delegation signature that anyone may relay. Setting and removing a delegate both bump the trader's nonce,
/// which invalidates signatures made before. The EIP-712 domain name and version and the delegation's type name are
/// constructor arguments, so the development chain can sign with the spec's names or a deployment's own.
contract Trading is EIP712 {
    bytes32 public immutable DELEGATION_TYPEHASH;

    TradingStorage public immutable tradingStorage;
    mapping(address delegator => address delegate) public delegations;
    mapping(address delegator => uint256 nonce) public delegatableNonces;

    event DelegateAdded(address indexed delegator, address indexed delegate);
    event DelegateRemoved(address indexed delegator, address indexed delegate);
    event CollateralDeposited(address indexed trader, address indexed caller, uint256 amount);

    error NullAddr();
    error SignatureExpired();
    error InvalidNonce();
    error InvalidSignature();
    error NoDelegate(address caller);
    error NotDelegate(address trader, address caller);

    constructor(IERC20 collateralToken, string memory domainName, string memory domainVersion, string memory delegationTypeName)
        EIP712(domainName, domainVersion)
    {
        tradingStorage = new TradingStorage(collateralToken);
        DELEGATION_TYPEHASH = keccak256(
            abi.encodePacked(delegationTypeName, "(address delegator,address delegate,uint256 nonce,uint256 expiry)")
        );
    }

    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    function setDelegate(address delegate) external {
        if (delegate == address(0)) revert NullAddr();
        _setDelegate(msg.sender, delegate);
    }

    function removeDelegate() external {
        address delegate = delegations[msg.sender];
        if (delegate == address(0)) revert NoDelegate(msg.sender);
        delegatableNonces[msg.sender]++;
        delete delegations[msg.sender];
        emit DelegateRemoved(msg.sender, delegate);
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
        if (delegate == address(0)) revert NullAddr();
        if (block.timestamp > expiry) revert SignatureExpired();
        if (nonce != delegatableNonces[delegator]) revert InvalidNonce();
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(DELEGATION_TYPEHASH, delegator, delegate, nonce, expiry)));
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(digest, v, r, s);
        if (recoverError != ECDSA.RecoverError.NoError || signer != delegator) revert InvalidSignature();
        _setDelegate(delegator, delegate);
    }

    /// @notice Moves `amount` of the trader's USDC into TradingStorage, using the allowance the trader gave it.
    function depositCollateral(address trader, uint256 amount) external {
        if (msg.sender != trader && msg.sender != delegations[trader]) revert NotDelegate(trader, msg.sender);
        tradingStorage.pullCollateral(trader, amount);
        emit CollateralDeposited(trader, msg.sender, amount);
    }

    function _setDelegate(address delegator, address delegate) private {
        delegatableNonces[delegator]++;
        delegations[delegator] = delegate;
        emit DelegateAdded(delegator, delegate);
    }
}
