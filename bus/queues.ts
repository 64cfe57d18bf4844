// Job queue names and their Redis key prefix: the one place they are spelled.

export const QUEUES = {
  /** POST /v1/onboard → relayer */
  onboarding: 'onboarding',
} as const

/** BullMQ's key prefix, namespaced like the bus's subjects (BUS_NAMESPACE). */
export function queueKeyPrefix(namespace: string): string {
  return namespace ? `${namespace}-bull` : 'bull'
}
