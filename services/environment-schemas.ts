// Every environment schema the roles parse, in one list. docs/configuration.md is generated from it
// (`npm run docs:config`), and test/architecture/configuration-table.test.ts fails when a schema passed to
// parseEnv is missing here or the table differs from what the schemas say.
import type { z } from 'zod'
import { CandlesEnv } from './candles/config.ts'
import { HistoryEnv } from './candles/history/history-config.ts'
import { EdgeEnv } from './edge/config.ts'
import { IndexerEnv } from './indexer/config.ts'
import { IngestorEnv } from './ingestor/config.ts'
import { chainEnvSchema, OnboardingEnv, RelayerEnv } from './onboarding/index.ts'
import { ProcessEnv } from './process-env.ts'
import { SubgraphDoorEnv } from './subgraph-door/config.ts'

export interface EnvironmentSchema {
  /** the identifier handed to parseEnv, by which the test finds unlisted schemas */
  name: string
  /** which processes parse it */
  readBy: string
  schema: z.ZodType
  /** the name a variable is documented under, for a schema built per instance (per chain) */
  documentedName?: (variable: string) => string
}

export const ENVIRONMENT_SCHEMAS: readonly EnvironmentSchema[] = [
  { name: 'ProcessEnv', readBy: 'every process', schema: ProcessEnv },
  { name: 'EdgeEnv', readBy: 'edge', schema: EdgeEnv },
  { name: 'CandlesEnv', readBy: 'edge', schema: CandlesEnv },
  { name: 'HistoryEnv', readBy: 'edge', schema: HistoryEnv },
  { name: 'IndexerEnv', readBy: 'edge', schema: IndexerEnv },
  { name: 'SubgraphDoorEnv', readBy: 'edge', schema: SubgraphDoorEnv },
  { name: 'IngestorEnv', readBy: 'ingestor', schema: IngestorEnv },
  { name: 'OnboardingEnv', readBy: 'edge, relayer (with onboarding)', schema: OnboardingEnv },
  {
    name: 'chainEnvSchema',
    readBy: 'edge, relayer (with onboarding), per chain: 42161, 421614',
    schema: chainEnvSchema(42161),
    documentedName: (variable) => variable.replace(/^CHAIN_42161_/, 'CHAIN_<id>_'),
  },
  { name: 'RelayerEnv', readBy: 'relayer (with onboarding)', schema: RelayerEnv },
]
