import t from 'tap'
import { inProcessJobQueue } from '../in-process-job-queue.ts'
import { jobQueueContract } from './job-queue-contract.ts'

// in one process every role shares one queue instance
jobQueueContract(t, async (options, shareWith) => shareWith ?? inProcessJobQueue(options))
