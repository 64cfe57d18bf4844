// Holds the development chain one test run shares: started by lifecycle.ts with the test run's pid, it starts
// the chain, completes the record with its deployment, says so on its stdout and runs until SIGTERM (lifecycle.ts) or until that test run
// process is gone (a run that was interrupted), then stops anvil and alto and, once they are gone, removes the
// record. Its log (stderr) is .tap/shared-devnet/devnet.log.
import { once } from 'node:events'
import { pino } from 'pino'
import { startDevnet, toDeployment } from '../../deploy/devnet/devnet.ts'
import { isRunning } from '../support/is-running.ts'
import { READY_LINE, removeSharedDevnetRecord, writeSharedDevnetRecord } from './record.ts'

const RUNNER_CHECK_INTERVAL_MS = 1000

const runnerPid = Number(process.argv[2])
if (!Number.isInteger(runnerPid) || runnerPid <= 0) throw new Error(`usage: daemon.ts <pid of the test run>, not ${process.argv[2]}`)
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2))

const beforeWroteItsRecord = once(process.stdin.resume(), 'end')
// The paymaster is deployed for the files that need their operations sponsored; every other file's relayer
// account holds ETH of its own and never asks it (see test/support/shared-devnet.ts).
const devnet = await startDevnet({ paymaster: true, logger })
await beforeWroteItsRecord
await writeSharedDevnetRecord({ runnerPid, daemonPid: process.pid, deployment: toDeployment(devnet) })
logger.info('shared devnet ready')
// the runner waits for this line (lifecycle.ts); nothing else is written to stdout
process.stdout.write(`${READY_LINE}\n`)

let stopping: Promise<void> | undefined
const stop = (why: string) => {
  stopping ??= (async () => {
    clearInterval(runnerCheck)
    logger.info({ why }, 'stopping the shared devnet')
    await devnet.stop()
    await removeSharedDevnetRecord()
  })().catch((error: unknown) => logger.error(error, 'the shared devnet did not stop cleanly'))
}
process.once('SIGTERM', () => stop('SIGTERM'))
process.once('SIGINT', () => stop('SIGINT'))
const runnerCheck = setInterval(() => {
  if (!isRunning(runnerPid)) stop(`the test run ${runnerPid} has ended`)
}, RUNNER_CHECK_INTERVAL_MS)
