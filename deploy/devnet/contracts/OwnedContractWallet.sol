// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @notice A minimal contract wallet for tests: it accepts, by ERC-1271, signatures its owner EOA made over the
/// hash itself, and lets the owner make calls from it (e.g. approve, setDelegate).
contract OwnedContractWallet is IERC1271 {
    address public immutable owner;

    error NotOwner(address caller);

    constructor(address owner_) {
        owner = owner_;
    }

    function execute(address target, uint256 value, bytes calldata data) external payable returns (bytes memory) {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        return Address.functionCallWithValue(target, data, value);
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecoverCalldata(hash, signature);
        bool signedByOwner = recoverError == ECDSA.RecoverError.NoError && signer == owner;
        return signedByOwner ? IERC1271.isValidSignature.selector : bytes4(0xffffffff);
    }
}
