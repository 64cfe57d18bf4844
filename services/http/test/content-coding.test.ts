import t from 'tap'
import { preferredCoding } from '../content-coding.ts'

t.test('Accept-Encoding: the better-weighted of br and gzip, br on a tie, identity when neither is acceptable', async (t) => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['deflate', 'identity'],
    ['identity', 'identity'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip;q=0', 'identity'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['gzip;q=nonsense', 'identity'],
    ['gzip;q=2', 'identity'],
    [' gzip ; q=0.3 , deflate', 'gzip'],
  ]
  for (const [header, coding] of cases) t.equal(preferredCoding(header), coding, String(header))
  t.equal(preferredCoding('gzip, deflate, br'), 'br', 'a remembered answer is the same answer')
})
