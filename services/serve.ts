import { parseCommandLine } from '../kit/command-line.ts'
import { createRootLogger } from '../kit/logger.ts'
import { checkConfiguration } from './check-configuration.ts'
import { ROLES } from './ops/roles.ts'
import type { RunRolesOptions } from './run-roles.ts'

/** How long a stop may take (streams drained, queues and connections closed) before the process leaves anyway. */
const SHUTDOWN_DEADLINE_MS = 10_000

/**
 * The roles given as the process's arguments (`edge ingestor` or `edge,ingestor`), as `command` is run; answers
 * `--help` and refuses anything but roles (exit 2).
 */
export function rolesFromCommandLine(command: string): string[] {
  const line = parseCommandLine({
    usage: `${command} [role ...]`,
    summary:
      `Runs the service's roles (${ROLES.join(', ')}) until SIGTERM or SIGINT: those given, else ROLES, else every role.\n` +
      'Everything else is configured by environment variables: see docs/configuration.md.',
    maxPositionals: Number.POSITIVE_INFINITY,
    options: {},
  })
  const roles = line.positionals.flatMap((argument) => argument.split(',')).filter(Boolean)
  for (const role of roles) if (!(ROLES as readonly string[]).includes(role)) line.refuse(`${role} is not a role (${ROLES.join(', ')})`)
  return roles
}

/**
 * Runs this process's roles until SIGTERM or SIGINT: `node dist/services/main.js` (production, compiled) or `npm start`
 * (the embedded default). Roles come from the arguments (`edge ingestor`) or ROLES.
 */
export async function serve(options: RunRolesOptions = {}, roles = rolesFromCommandLine('node dist/services/main.js')): Promise<void> {
  const cliRoles = roles.join(',')
  const env = cliRoles ? { ...process.env, ROLES: cliRoles } : process.env
  let logger = createRootLogger({ level: 'info' })
  try {
    // the whole configuration first, and only then the heavy imports: a wrong value fails in well under a second
    const configuration = checkConfiguration(env, {
      embeddedChains: options.startEmbeddedChains !== undefined,
      embeddedIndexer: options.startEmbeddedIndexer !== undefined,
    })
    logger = createRootLogger({ level: configuration.process.LOG_LEVEL, secrets: configuration.secrets })
    const { runRoles } = await import('./run-roles.ts')
    // The signal handlers come first: prices are served before onboarding's chains are up, so a stop can
    // arrive while the start is still going on; it then waits for the start and stops everything.
    const starting = runRoles(env, logger, options)
    let stopping = false
    const shutdown = async (signal: string) => {
      if (stopping) return
      stopping = true
      logger.info({ signal }, 'shutting down')
      const running = await starting.catch(() => undefined)
      // a dependency that is away (Redis, a chain) must not keep the process from leaving
      const stopped = await Promise.race([
        running?.stop().then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), SHUTDOWN_DEADLINE_MS).unref()),
      ])
      if (stopped === false) logger.warn({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'stop did not finish in time; leaving anyway')
      logger.info('stopped')
      logger.flush()
      process.exit(0)
    }
    process.on('SIGTERM', () => void shutdown('SIGTERM'))
    process.on('SIGINT', () => void shutdown('SIGINT'))
    // an edge worker (see edge-workers.ts) leaves with the process that started it
    if (process.channel) process.once('disconnect', () => void shutdown('primary gone'))
    await starting
  } catch (error) {
    logger.fatal({ err: error }, error instanceof Error ? error.message : 'start failed')
    logger.flush()
    process.exit(1)
  }
}
