import t from 'tap'
import { clientIpResolver, normaliseIp } from '../client-ip.ts'

t.test('IPv4 seen through IPv6 sockets is plain IPv4', async (t) => {
  t.equal(normaliseIp('0000:0000:0000:0000:0000:ffff:7f00:0001'), '127.0.0.1')
  t.equal(normaliseIp('::ffff:10.1.2.3'), '10.1.2.3')
  t.equal(normaliseIp('2001:db8::1'), '2001:db8::1')
})

t.test('without trusted proxies X-Forwarded-For is ignored', async (t) => {
  const resolve = clientIpResolver([])
  t.equal(resolve('198.51.100.7', '203.0.113.1'), '198.51.100.7')
})

t.test('from a trusted proxy, the right-most untrusted hop is the client', async (t) => {
  const resolve = clientIpResolver(['10.0.0.0/8', '192.0.2.1'])
  t.equal(resolve('10.1.1.1', '203.0.113.5'), '203.0.113.5')
  t.equal(resolve('10.1.1.1', 'spoofed, 203.0.113.5, 192.0.2.1'), '203.0.113.5', 'a forged left-most hop is not believed')
  t.equal(resolve('10.1.1.1', '10.2.2.2, 10.3.3.3'), '10.2.2.2', 'all hops trusted: the left-most')
  t.equal(resolve('198.51.100.7', '203.0.113.5'), '198.51.100.7', 'an untrusted peer cannot forward')
  t.equal(resolve('10.1.1.1', undefined), '10.1.1.1')
})

t.test('a malformed proxy entry stops the start', async (t) => {
  t.throws(() => clientIpResolver(['not-an-ip']), /TRUSTED_PROXIES entry "not-an-ip"/)
})
