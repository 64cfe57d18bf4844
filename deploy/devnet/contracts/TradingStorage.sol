// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @notice Holds traders' collateral. It is the contract that pulls USDC from traders, so it is the spender of
/// their ERC-2612 permit / approve. Only the Trading contract that created it may pull collateral.
contract TradingStorage {
    using SafeERC20 for IERC20;

    IERC20 public immutable collateralToken;
    address public immutable trading;
    mapping(address trader => uint256 amount) public collateralOf;

    event CollateralPulled(address indexed trader, uint256 amount);

    error OnlyTrading(address caller);

    constructor(IERC20 collateralToken_) {
        collateralToken = collateralToken_;
        trading = msg.sender;
    }

    function pullCollateral(address trader, uint256 amount) external {
        if (msg.sender != trading) revert OnlyTrading(msg.sender);
        collateralToken.safeTransferFrom(trader, address(this), amount);
        collateralOf[trader] += amount;
        emit CollateralPulled(trader, amount);
    }
}
