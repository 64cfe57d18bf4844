// Content negotiation for response compression (RFC 9110 12.5.3): which coding an Accept-Encoding allows.

export type ContentCoding = 'br' | 'gzip' | 'identity'

const MAX_REMEMBERED = 256
const remembered = new Map<string, ContentCoding>()

/**
 * The coding to answer with: `br` or `gzip`, whichever the header weighs higher (br on a tie, being
 * smaller), or `identity` when it accepts neither. Clients send a handful of distinct headers, so the
 * answers are remembered (a bounded table, emptied when full).
 */
export function preferredCoding(acceptEncoding: string | undefined): ContentCoding {
  if (!acceptEncoding) return 'identity'
  let coding = remembered.get(acceptEncoding)
  if (coding === undefined) {
    coding = negotiate(acceptEncoding)
    if (remembered.size >= MAX_REMEMBERED) remembered.clear()
    remembered.set(acceptEncoding, coding)
  }
  return coding
}

function negotiate(header: string): ContentCoding {
  let wildcard: number | undefined
  const weights = new Map<string, number>()
  for (const member of header.split(',')) {
    const [name, ...parameters] = member.split(';')
    const coding = name!.trim().toLowerCase()
    if (coding === '') continue
    let weight = 1
    for (const parameter of parameters) {
      const [key, value] = parameter.split('=')
      if (key!.trim().toLowerCase() === 'q') weight = Number(value?.trim())
    }
    if (!Number.isFinite(weight) || weight < 0 || weight > 1) weight = 0
    if (coding === '*') wildcard = weight
    // x-gzip is an alias of gzip (RFC 9110 8.4.1.3)
    else weights.set(coding === 'x-gzip' ? 'gzip' : coding, weight)
  }
  const weightOf = (coding: string) => weights.get(coding) ?? wildcard ?? 0
  const br = weightOf('br')
  const gzip = weightOf('gzip')
  if (br > 0 && br >= gzip) return 'br'
  if (gzip > 0) return 'gzip'
  return 'identity'
}
