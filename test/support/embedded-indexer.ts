import type { RunRolesOptions } from '../../services/run-roles.ts'
import { startEmbeddedIndexer } from '../../standins/subgraph/embedded.ts'

/** runRoles options for tests that run the edge on the embedded GraphQL stand-in, as `npm start` does. */
export const WITH_EMBEDDED_INDEXER: RunRolesOptions = { startEmbeddedIndexer }
