// The one place subject and bucket names are spelled. A namespace (e.g. per test run, or per
// environment sharing one NATS) prefixes every name so runs never see each other's traffic.

export interface BusNames {
  /** subject of the ticks of one pair */
  tickSubject(pair: string): string
  /** wildcard matching the ticks of every pair */
  allTicks: string
  /** the pair symbol of a tick subject */
  pairOfTickSubject(subject: string): string
  /** subject on which the tick stream republishes a stored tick of one pair, its position in a header */
  numberedTickSubject(pair: string): string
  /** wildcard matching every republished tick */
  allNumberedTicks: string
  /** the tick stream's republish destination: a tick subject's pair token put into the numbered subject */
  numberedTickDestination: string
  /** the pair symbol of a numbered tick subject */
  pairOfNumberedTickSubject(subject: string): string
  /** JetStream key-value bucket holding the latest row per pair (key = pair symbol) */
  latestPricesBucket: string
  /** the subject a pair's entry of the latest-row bucket is stored under */
  latestRowSubject(pair: string): string
  /** JetStream stream keeping every tick for the resume window, numbering them (nats-tick-log.ts) */
  tickStream: string
}

export function busNames(namespace = ''): BusNames {
  if (namespace !== '' && !/^[A-Za-z0-9_-]+$/.test(namespace)) {
    throw new Error(`bus namespace "${namespace}" may hold only letters, digits, "_" and "-"`)
  }
  const bucket = namespace === '' ? 'prices' : `${namespace}-prices`
  const prefix = namespace === '' ? '' : `${namespace}.`
  const tickPrefix = `${prefix}prices.v1.tick.`
  const numberedPrefix = `${prefix}prices.v1.numbered.`
  return {
    tickSubject: (pair) => tickPrefix + pair,
    allTicks: `${tickPrefix}*`,
    pairOfTickSubject: (subject) => subject.slice(tickPrefix.length),
    numberedTickSubject: (pair) => numberedPrefix + pair,
    allNumberedTicks: `${numberedPrefix}*`,
    numberedTickDestination: `${numberedPrefix}{{wildcard(1)}}`,
    pairOfNumberedTickSubject: (subject) => subject.slice(numberedPrefix.length),
    latestPricesBucket: bucket,
    latestRowSubject: (pair) => `$KV.${bucket}.${pair}`,
    tickStream: namespace === '' ? 'price-ticks' : `${namespace}-price-ticks`,
  }
}
