// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Trading} from "./Trading.sol";

/// @notice The wrapper partners delegate to: it calls Trading on behalf of the trader who calls it, which Trading
/// allows only once the trader has made this contract its delegate.
contract VenueAtomicTrading {
    Trading public immutable trading;

    constructor(Trading trading_) {
        trading = trading_;
    }

    function depositCollateral(uint256 amount) external {
        trading.depositCollateral(msg.sender, amount);
    }
}
