// How fast this machine copies bytes from one core to the other over loopback TCP, as a stream server on CPU 0
// sends to its load client on CPU 1. On the 2-core machines of the kind that rate has been seen to fall to about
// half for stretches of seconds to tens of seconds (`iperf3` and this probe alike), and a saturated stream server,
// whose time goes mostly to the kernel's copy of its sends (`_copy_from_iter`), delivers a quarter less then. The
// stream bench probes before and after each step, so that a step taken in such a stretch can be told apart.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { pinned } from '../loadtest/pinning.ts'

const SENDER = fileURLToPath(new URL('./loopback-sender.ts', import.meta.url))

/**
 * GB/s sent from a process on `senderCpus` to this process (pinned where the caller runs, the load client's core in
 * the stream bench) over `ms` milliseconds.
 */
export async function loopbackGigabytesPerSecond(options: { senderCpus: string; ms: number }): Promise<number> {
  const server = createServer((socket) => socket.resume())
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  try {
    const { port } = server.address() as AddressInfo
    const [command, ...rest] = pinned(options.senderCpus, [process.execPath, '--import', 'tsx', SENDER, String(port), String(options.ms)])
    const sender = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'inherit'] })
    let printed = ''
    sender.stdout.on('data', (data: Buffer) => (printed += data.toString()))
    const [code] = (await once(sender, 'exit')) as [number | null]
    if (code !== 0) throw new Error(`the loopback probe's sender exited with ${code}`)
    return Number(printed.trim()) / (options.ms * 1e6)
  } finally {
    server.close()
  }
}
