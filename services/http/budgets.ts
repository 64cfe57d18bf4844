// Named rate-limit budgets (spec 8): per IP, mostly per route; some routes share one budget.
// The one place the figures live. Clients read them from the x-ratelimit-* headers.

export interface Budget {
  /** requests allowed per window */
  points: number
  windowSeconds: number
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
  /** one budget shared by GET /v1/depth/{pair} and its quote (the spec leaves these limits open) */
  depth: { points: 60, windowSeconds: 10 },
  /** POST /v1/subgraph/gn and /v1/subgraph/{chainId}/gn, both chains; not in the spec: ours (docs/subgraph-door.md) */
  subgraph: { points: 30, windowSeconds: 10 },
} as const satisfies Record<string, Budget>

export type BudgetName = keyof typeof BUDGETS
