import type { StreamConfig } from './config.ts'
import { UpgradeAdmission } from './upgrade-admission.ts'
import { UpgradeGate } from './upgrade-gate.ts'

/**
 * What every stream path of a replica admits upgrades through: one set of connection ceilings (a price-stream
 * connection and a candle-stream connection take places from the same per-IP and total counts) and one
 * admission rate.
 */
export interface StreamAdmission {
  gate: UpgradeGate
  upgradeRate: UpgradeAdmission
}

export function createStreamAdmission(config: StreamConfig): StreamAdmission {
  return {
    gate: new UpgradeGate({ maxConnectionsPerIp: config.STREAM_MAX_CONNECTIONS_PER_IP, maxConnections: config.STREAM_MAX_CONNECTIONS }),
    upgradeRate: new UpgradeAdmission({
      perSecond: config.STREAM_UPGRADES_PER_SECOND,
      burst: config.STREAM_UPGRADE_BURST,
      maxRetrySeconds: config.STREAM_UPGRADE_RETRY_MAX_SECONDS,
    }),
  }
}
