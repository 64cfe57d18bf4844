// The request body of the subgraph-door bench, shared by its load client and its baseline server.

/** what the bench's clients send: the Python SDK's pair list, as a cached door answers it */
export const BENCH_QUERY_BODY = JSON.stringify({
  query: '{ pairs(first: 1000) { id from to feed longOI shortOI maxOI makerFeeP takerFeeP maxLeverage group { id name } } }',
})
