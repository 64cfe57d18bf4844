// Every per-IP figure of the service (spec 8), in one place: the windowed budgets the request pipeline
// checks, and the ceilings on what one address may hold open at once. The stream's configuration takes its
// defaults from here and the API documents are given them; clients read the x-ratelimit-* headers.
// Per IP means per budget key: an IPv4 address, or an IPv6 prefix (see budget-keys.ts).

export interface Budget {
  /** requests allowed per window */
  points: number
  windowSeconds: number
  /** counted by each replica alone even when budgets are shared through Redis (spec 8: the stream's are per pod) */
  perReplica?: true
}

export const BUDGETS = {
  onboard: { points: 10, windowSeconds: 10 },
  /** GET /v1/onboard/{id}, polling an outcome that passed the deadline: ours, so polling never eats the POST budget */
  onboardStatus: { points: 60, windowSeconds: 10 },
  prices: { points: 100, windowSeconds: 10 },
  status: { points: 60, windowSeconds: 10 },
  /** one budget shared by pairs, trades, limits and executed orders */
  portfolio: { points: 60, windowSeconds: 10 },
  /** GET /v1/market-hours; not in the spec (its figure is "not shown"): ours */
  marketHours: { points: 60, windowSeconds: 10 },
  /** POST /v1/ohlc; not in the spec (its figure is "not shown"): ours */
  ohlc: { points: 60, windowSeconds: 10 },
  /** the TradingView datafeed, GET /v1/udf/*: a chart asks for config, symbol, then history pages; ours */
  udf: { points: 60, windowSeconds: 10 },
  /** one budget shared by GET /v1/depth/{pair} and its quote (the spec leaves these limits open) */
  depth: { points: 60, windowSeconds: 10 },
  /** WebSocket upgrades of the price stream; STREAM_UPGRADES_PER_IP_PER_MINUTE overrides the figure */
  streamUpgrades: { points: 60, windowSeconds: 60, perReplica: true },
  /** POST /v1/subgraph/gn, /v1/subgraph/{chainId}/gn and /graph, both chains; not in the spec: ours (docs/subgraph-door.md) */
  subgraph: { points: 30, windowSeconds: 10 },
} as const satisfies Record<string, Budget>

export type BudgetName = keyof typeof BUDGETS

/** Budgets per stream socket rather than per IP; STREAM_MESSAGES_PER_SOCKET_PER_MINUTE overrides the figure. */
export const SOCKET_BUDGETS = {
  /** client messages; past it a message is answered with an `error` frame `rate_limited` */
  streamMessages: { points: 120, windowSeconds: 60 },
} as const satisfies Record<string, Budget>

/** Ceilings on open stream connections, per replica; STREAM_MAX_CONNECTIONS_PER_IP and STREAM_MAX_CONNECTIONS override them. */
export const CONNECTION_CEILINGS = {
  /** per budget key; refused with 429 */
  perIp: 20,
  /** this replica's total; refused with 503 */
  total: 500,
}

/** The stream's default limits, as the AsyncAPI document states them. */
export const STREAM_LIMITS = {
  connectionsPerIp: CONNECTION_CEILINGS.perIp,
  connections: CONNECTION_CEILINGS.total,
  upgradesPerIpPerMinute: BUDGETS.streamUpgrades.points,
  messagesPerSocketPerMinute: SOCKET_BUDGETS.streamMessages.points,
}
