// The roles a process can run; what each needs to be ready is ops-routes.ts's roleReadiness.

export const ROLES = ['ingestor', 'edge', 'relayer'] as const
export type Role = (typeof ROLES)[number]
