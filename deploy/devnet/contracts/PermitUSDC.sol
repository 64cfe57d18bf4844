// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";
import {SixDecimalTestToken} from "./SixDecimalTestToken.sol";

/// @notice Stand-in for native USDC on chain 42161 (FiatToken v2.2), reproducing what a relayer depends on:
/// - the EIP-712 domain is { name: "USD Coin", version: "2" } and there is no `eip712Domain()`, so clients must
///   read `name()` and `version()` from the token;
/// - ERC-2612 `permit` accepts a 65-byte EOA signature or, for a contract owner, any bytes its ERC-1271
///   `isValidSignature` accepts; there is a `bytes signature` overload for the latter;
/// - failures revert with FiatToken's own reason strings.
contract PermitUSDC is SixDecimalTestToken, IERC20Permit, Nonces {
    string public constant version = "2";

    bytes32 private constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    constructor() SixDecimalTestToken("USD Coin", "USDC") {}

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(name())), keccak256(bytes(version)), block.chainid, address(this))
        );
    }

    function nonces(address owner) public view override(IERC20Permit, Nonces) returns (uint256) {
        return super.nonces(owner);
    }

    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
    {
        permit(owner, spender, value, deadline, abi.encodePacked(r, s, v));
    }

    function permit(address owner, address spender, uint256 value, uint256 deadline, bytes memory signature) public {
        require(deadline >= block.timestamp, "FiatTokenV2: permit is expired");
        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, _useNonce(owner), deadline));
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
        require(SignatureChecker.isValidSignatureNow(owner, digest, signature), "EIP2612: invalid signature");
        _approve(owner, spender, value);
    }
}
