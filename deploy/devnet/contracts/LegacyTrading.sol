// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice An earlier published version of the venue's Trading delegation (Delegatable v1.2): a trader sets its
/// delegate itself; there is no signature delegation and no delegatableNonces. Deployed by tests that check the
/// service refuses delegations on such a chain from the start.
contract LegacyTrading {
    mapping(address delegator => address delegate) public delegations;

    event DelegateAdded(address indexed delegator, address indexed delegate);
    event DelegateRemoved(address indexed delegator, address indexed delegate);

    error NullAddr();
    error NoDelegate(address a);

    function setDelegate(address delegate) external {
        if (delegate == address(0)) revert NullAddr();
        delegations[msg.sender] = delegate;
        emit DelegateAdded(msg.sender, delegate);
    }

    function removeDelegate() external {
        address delegate = delegations[msg.sender];
        if (delegate == address(0)) revert NoDelegate(msg.sender);
        delete delegations[msg.sender];
        emit DelegateRemoved(msg.sender, delegate);
    }
}
