// Preloaded into the alto bundler (`node --import`). Alto 0.0.20 always listens on 0.0.0.0 and has no option
// for the host, so its listen call is redirected to the loopback interface: the devnet is reachable from this
// machine only.
import net from 'node:net'

const listen = net.Server.prototype.listen

net.Server.prototype.listen = function listenOnLoopback(...args) {
  const [options] = args
  if (options && typeof options === 'object' && options.host === '0.0.0.0') {
    args[0] = { ...options, host: '127.0.0.1' }
  }
  return listen.apply(this, args)
}
