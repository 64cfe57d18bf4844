// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SixDecimalTestToken} from "./SixDecimalTestToken.sol";

/// @notice The test token of chain 421614: a plain ERC-20 without `permit` or `nonces`, so a wallet approves
/// TradingStorage itself and only the delegation is relayed.
contract PlainUSDC is SixDecimalTestToken {
    constructor() SixDecimalTestToken("Venue Test USDC", "USDC") {}
}
