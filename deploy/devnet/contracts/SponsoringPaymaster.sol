// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IPaymaster} from "@account-abstraction/contracts/interfaces/IPaymaster.sol";
import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

interface IEntryPointDeposits {
    function depositTo(address account) external payable;
}

/// @notice A verifying paymaster for the development chain, of the kind ERC-7677 paymaster services run: it pays for
/// an operation that its off-chain signer has approved. `paymasterAndData` is the paymaster, its two gas limits
/// (16 bytes each), then `validUntil` and `validAfter` (6 bytes each) and the signer's 65-byte signature over
/// `sponsoredHash`. A wrong signature fails validation (it does not revert), so bundlers can estimate an operation
/// carrying the stub signature. Works with EntryPoint v0.7 and v0.8 (same PackedUserOperation and IPaymaster).
contract SponsoringPaymaster is IPaymaster {
    uint256 private constant DATA_OFFSET = 52;
    uint256 private constant SIGNATURE_OFFSET = DATA_OFFSET + 12;

    address public immutable entryPoint;
    address public immutable signer;

    error NotFromEntryPoint(address caller);
    error MalformedPaymasterData(uint256 length);

    constructor(address entryPoint_, address signer_) {
        entryPoint = entryPoint_;
        signer = signer_;
    }

    /// @notice Funds this paymaster's deposit at the EntryPoint, from which operations are paid.
    function deposit() external payable {
        IEntryPointDeposits(entryPoint).depositTo{value: msg.value}(address(this));
    }

    /// @notice What the signer signs (as an EIP-191 message): everything of the operation but the signatures.
    function sponsoredHash(PackedUserOperation calldata op, uint48 validUntil, uint48 validAfter) public view returns (bytes32) {
        return keccak256(
            abi.encode(
                op.sender,
                op.nonce,
                keccak256(op.initCode),
                keccak256(op.callData),
                op.accountGasLimits,
                uint256(bytes32(op.paymasterAndData[20:DATA_OFFSET])),
                op.preVerificationGas,
                op.gasFees,
                block.chainid,
                address(this),
                validUntil,
                validAfter
            )
        );
    }

    function validatePaymasterUserOp(PackedUserOperation calldata op, bytes32, uint256)
        external
        view
        returns (bytes memory context, uint256 validationData)
    {
        if (msg.sender != entryPoint) revert NotFromEntryPoint(msg.sender);
        if (op.paymasterAndData.length != SIGNATURE_OFFSET + 65) revert MalformedPaymasterData(op.paymasterAndData.length);
        uint48 validUntil = uint48(bytes6(op.paymasterAndData[DATA_OFFSET:DATA_OFFSET + 6]));
        uint48 validAfter = uint48(bytes6(op.paymasterAndData[DATA_OFFSET + 6:SIGNATURE_OFFSET]));
        bytes32 digest = MessageHashUtils.toEthSignedMessageHash(sponsoredHash(op, validUntil, validAfter));
        (address recovered, ECDSA.RecoverError error,) = ECDSA.tryRecover(digest, op.paymasterAndData[SIGNATURE_OFFSET:]);
        uint256 failed = error == ECDSA.RecoverError.NoError && recovered == signer ? 0 : 1;
        return ("", failed | (uint256(validUntil) << 160) | (uint256(validAfter) << 208));
    }

    function postOp(PostOpMode, bytes calldata, uint256, uint256) external view {
        if (msg.sender != entryPoint) revert NotFromEntryPoint(msg.sender);
    }
}
