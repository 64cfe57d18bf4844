import type { Env } from '../../kit/env-parsing.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { ingestorConfig, type IngestorConfig } from './config.ts'
import { startIngestor, type Ingestor } from './ingestor.ts'
import { flagsOrUndefined, type MarketClock } from '../market-hours/market-clock.ts'
import { calendarMarketClock } from '../market-hours/calendar-market-clock.ts'
import type { FeedSource } from './sources/feed-source.ts'
import { hermesSource } from './sources/hermes-source.ts'
import { replaySource } from './sources/replay-source.ts'
import { simulatorSource } from './sources/simulator-source.ts'

export interface IngestorRoleDeps {
  env: Env
  bus: PriceBus
  logger: Logger
  metrics: Metrics
  /** where the feed source reports on /readyz, by name */
  readinessDetails?: Map<string, () => unknown>
}

/** The ingestor role: the configured feed source, normalised onto the bus. */
export function startIngestorRole(deps: IngestorRoleDeps): Ingestor {
  const config = ingestorConfig(deps.env)
  const logger = deps.logger.child({ role: 'ingestor' })
  const clock = calendarMarketClock()
  const source = feedSource(config, clock, logger, deps)
  logger.info(
    { source: source.name },
    source.name === 'simulator' ? 'feed: embedded simulator (set FEED_SOURCE for a real feed)' : 'feed source selected',
  )
  return startIngestor({ source, bus: deps.bus, clock, logger, metrics: deps.metrics })
}

function feedSource(config: IngestorConfig, clock: MarketClock, logger: Logger, deps: IngestorRoleDeps): FeedSource {
  switch (config.FEED_SOURCE) {
    case 'simulator':
      return simulatorSource({
        ticksPerSecond: config.SIM_TICKS_PER_SECOND,
        seed: config.SIM_SEED,
        isTrading: (pairId, nowMs) => flagsOrUndefined(clock, pairId, nowMs)?.isMarketOpen === true,
      })
    case 'hermes': {
      const source = hermesSource({
        baseUrl: config.HERMES_URL,
        apiKey: config.hermesApiKey,
        ignoreInvalidPriceIds: config.HERMES_IGNORE_INVALID_PRICE_IDS,
        logger,
        metrics: deps.metrics,
        reconnect: { initialDelayMs: 500, maxDelayMs: 30_000 },
      })
      deps.readinessDetails?.set('hermes', () => source.readiness())
      return source
    }
    case 'replay':
      return replaySource({ file: config.REPLAY_FILE!, speed: config.REPLAY_SPEED, loop: config.REPLAY_LOOP })
  }
}
