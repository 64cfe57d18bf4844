// Masks secrets in text bound for a log line: credentials inside URLs, key-like query parameters, and
// the secret values the configuration names (keys in URL paths, Redis passwords, private keys).

export const MASK = '***'

/** `scheme://user:password@` and `scheme://token@`: the userinfo part of any URL. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\]+@/gi
/** `?apikey=…`, `&token=…` and friends. */
const KEY_QUERY = /([?&;](?:[a-z0-9_-]*(?:key|token|secret|password|passwd|pwd|auth|signature|sig|credential)[a-z0-9_-]*)=)[^&#\s"'<>\\]*/gi
/** A path segment that looks like an API key: long, with letters and digits (Alchemy, Infura, The Graph). */
const KEY_LIKE_SEGMENT = /^(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}$/
/** Shorter values are not registered: masking them would mangle ordinary words. */
const MIN_SECRET_LENGTH = 6

export interface Redactor {
  /** the text with every secret masked */
  mask(text: string): string
}

/** A redactor for the given secret values (each also masked in its JSON- and URL-escaped spellings). */
export function createRedactor(secrets: Iterable<string> = []): Redactor {
  const spellings = new Set<string>()
  for (const secret of secrets) {
    for (const spelling of [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), safeDecode(secret)]) {
      if (spelling.length >= MIN_SECRET_LENGTH) spellings.add(spelling)
    }
  }
  // longest first, so a secret that contains another is masked whole
  const known = [...spellings].sort((a, b) => b.length - a.length)
  return {
    mask(text) {
      let masked = text.replace(URL_USERINFO, `$1${MASK}@`).replace(KEY_QUERY, `$1${MASK}`)
      for (const secret of known) if (masked.includes(secret)) masked = masked.split(secret).join(MASK)
      return masked
    },
  }
}

/** A URL for a log line or a message: its userinfo, key-like path segments and key-like query values masked. */
export function maskUrl(url: string): string {
  return createRedactor(secretsOfUrl(url).filter((secret) => KEY_LIKE_SEGMENT.test(secret))).mask(url)
}

/**
 * The secret parts of a configured URL, to register with the logger's redactor: the password (or a lone user),
 * every query value, and path segments that look like API keys.
 */
export function secretsOfUrl(text: string): string[] {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return []
  }
  // a user name alone (https://TOKEN@host) is the credential; beside a password it is masked only if key-like
  const user = !url.password || KEY_LIKE_SEGMENT.test(url.username) ? [url.username] : []
  const secrets = [...user, url.password, ...url.searchParams.values()]
  for (const segment of url.pathname.split('/')) if (KEY_LIKE_SEGMENT.test(segment)) secrets.push(segment)
  return secrets.filter((secret) => secret.length > 0)
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
