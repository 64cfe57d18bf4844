// The sending end of the loopback probe (loopback-probe.ts): writes 16 KiB chunks to a loopback port for the given
// milliseconds, as fast as the socket takes them, then prints the bytes written and closes.
// Usage (started by the probe): tsx bench/loopback-sender.ts <port> <ms>
import { connect } from 'node:net'

const [port, ms] = [Number(process.argv[2]), Number(process.argv[3])]
// uWebSockets.js writes a socket's 32 queued tick frames of about 500 bytes at once: about this much
const chunk = Buffer.alloc(16 * 1024, 'x')
const socket = connect(port, '127.0.0.1', () => {
  const until = performance.now() + ms
  let bytes = 0
  const pump = () => {
    while (performance.now() < until) {
      bytes += chunk.length
      if (!socket.write(chunk)) return void socket.once('drain', pump)
    }
    process.stdout.write(`${bytes}\n`)
    socket.end()
  }
  pump()
})
