// What counts as a credential (docs/architecture.md#redaction), by name (headers, URL
// parameters, body fields), by header value (`Bearer …`) and by shape (a path segment that is
// an API key), and the record every redaction step writes: what it removed, and the values it
// removed, to be found again anywhere else in the same export.

export const REDACTED = '[REDACTED]'

/** One thing an export left out: where (url, request header, response header, request body, response body) and its name. */
export interface Redaction {
  where: 'url' | 'request header' | 'response header' | 'request body' | 'response body'
  name: string
}

/**
 * What the user adds to the defaults (the panel's list, redact-user.ts): names of headers, URL
 * parameters and body fields (case-insensitive), literal values and wildcard patterns, both
 * replaced wherever they appear in the export.
 */
export interface RedactNames {
  names?: readonly string[]
  /** Exact text (at least 4 characters), replaced wherever it appears, as written and JSON-escaped. */
  values?: readonly string[]
  /** Wildcard patterns (`sk-live-*`): `*` is the rest of a token, `?` one token character (redact-user.ts). */
  patterns?: readonly string[]
}

/** Values shorter than this are not looked for elsewhere: "1" or "true" would match everywhere. */
export const MIN_ECHO = 6

/** What the redaction of one export has removed so far: listed for the export, and the values, to find their echoes. */
export class RedactionLog {
  readonly removed: Redaction[] = []
  /** Each removed value, with the name its echoes are listed under (e.g. `value of request header Authorization`). */
  readonly values = new Map<string, string>()
  private readonly listed = new Set<string>()
  private readonly extra: ReadonlySet<string>

  constructor(options: RedactNames = {}) {
    this.extra = new Set((options.names ?? []).map((n) => n.trim().toLowerCase()).filter((n) => n !== ''))
  }

  /** True when the user listed this name (exactly, case-insensitive). */
  listedByUser(name: string): boolean {
    return this.extra.size > 0 && this.extra.has(name.trim().toLowerCase())
  }

  /** Records a removal (once per where and name) and the value removed. */
  add(where: Redaction['where'], name: string, ...values: string[]): void {
    const key = `${where}\u0000${name}`
    if (!this.listed.has(key)) {
      this.listed.add(key)
      this.removed.push({ where, name })
    }
    for (const v of values) this.value(v, `${where} ${name}`)
  }

  /** A removed value worth finding again: long enough, and not the placeholder; `from` says what it was. */
  value(v: string, from: string): void {
    const t = v.trim()
    if (t.length < MIN_ECHO || t.includes(REDACTED) || this.values.has(t)) return
    this.values.set(t, `value of ${from}`)
  }

  /** A value the user listed: looked for wherever it appears, listed under `label` (e.g. `listed value 2`). */
  listedValue(v: string, label: string): void {
    if (v.includes(REDACTED)) return
    this.values.set(v, label) // the user's label wins over a default's
  }
}

const SECRET_HEADERS = new Set([
  'authorization', 'proxy-authorization', 'authentication', 'cookie', 'set-cookie', 'cookie2', 'set-cookie2',
  'openai-organization', 'openai-project', 'x-auth-key',
])

/**
 * True for headers that carry credentials or identify the account: Authorization,
 * Proxy-Authorization, Authentication, Cookie, Set-Cookie, OpenAI-Organization,
 * OpenAI-Project, and any name containing api-key / apikey / api_key, token, secret, session,
 * password, passphrase, credential, bearer, signature, private-key, access-key or an `auth`
 * word (X-Auth-Key, X-Auth-Token), case-insensitive. `…-tokens` counters
 * (x-ratelimit-remaining-tokens, anthropic-ratelimit-tokens-remaining) are not credentials.
 */
export function isSecretHeader(name: string): boolean {
  const n = name.trim().toLowerCase()
  if (SECRET_HEADERS.has(n)) return true
  return /api[-_]?key|token(?!s|[-_]?(type|count|limit))|secret|session|password|passwd|passphrase|credential|subscription-key|bearer|signature|private[-_]?key|access[-_]?key|(^|[-_])auth([-_]|$)/.test(n)
}

/** A header value that is a credential whatever its header's name: `Bearer …`, `Basic …`, `Token …`, `Digest …`. */
export function isSecretHeaderValue(value: string): boolean {
  return /^\s*(bearer|basic|token|digest)\s+\S/i.test(value)
}

/** Query / form parameter names whose value is a credential. */
const SECRET_PARAMS = new Set(['key', 'sig', 'auth', 'authorization', 'pass', 'pwd', 'code', 'code_verifier', 'bearer', 'passphrase'])

/**
 * True for query, fragment and form parameters that carry credentials: key, api_key, apikey,
 * api-key, token, access_token, id_token, code (an OAuth code), sig, signature, secret,
 * client_secret, password, passphrase, bearer, session…, X-Amz-Signature / X-Amz-Credential /
 * X-Amz-Security-Token (case-insensitive).
 */
export function isSecretParam(name: string): boolean {
  const n = name.trim().toLowerCase()
  if (SECRET_PARAMS.has(n)) return true
  return /api[-_]?key|token(?!s|[-_]?(type|count|limit))|secret|session|password|passwd|passphrase|signature|credential|subscription-key/.test(n)
}

/**
 * JSON body field names whose value is a credential (max_tokens and other counters, and a
 * thinking block's signature, are not): key, api_key, apiKey, secret, client_secret,
 * password, pwd, passphrase, bearer, credentials, cookie, token, access_token, session, sessionId,
 * session_key…
 */
export function isSecretField(name: string): boolean {
  // camelCase → snake_case, so apiKey, accessToken and sessionId read like their snake forms
  const n = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/[-\s]/g, '_')
  if (n === 'key' || n === 'auth' || n === 'authorization' || n === 'password' || n === 'passwd' || n === 'pwd' || n === 'cookie' || n === 'bearer') return true
  return /(^|_)(api_?key|secret|client_secret|secret_key|private_key|access_key|password|pass_?phrase|credentials?)$/.test(n) ||
    /(^|_)token$/.test(n) || // access_token, refresh_token, id_token, session_token, token — not max_tokens
    /(^|_)session(_?(id|key))?$/.test(n)
}

/** Known API key and token shapes: a path segment (or any value) that looks like one is a credential. */
const KEY_SHAPES = /^(?:sk-|sk_|rk_|pk_(?:live|test)_|AIza|gsk_|xai-|hf_|r8_|pplx-|ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|xox[abprs]-|ya29\.|AKIA|ASIA)[A-Za-z0-9._-]{8,}$|^eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*$|^bot\d+:[A-Za-z0-9_-]{20,}$/

/** Path segments after which the next segment is a credential: `/key/…`, `/token/…`. */
const KEY_SEGMENTS = new Set(['key', 'keys', 'apikey', 'api-key', 'api_key', 'token', 'access_token', 'access-token', 'secret', 'password'])

/** A URL path segment (decoded) that is a credential: a known key shape, or what follows a segment naming one. */
export function isSecretSegment(segment: string, previous: string | null): boolean {
  return KEY_SHAPES.test(segment) || (previous !== null && KEY_SEGMENTS.has(previous.toLowerCase()) && segment !== '')
}

/** The values a secret header carries: the whole value, a scheme's credentials, each cookie's value. */
export function headerValues(name: string, value: string): string[] {
  const out = [value]
  const scheme = /^\s*(?:bearer|basic|token|digest)\s+(\S.*)$/i.exec(value)
  if (scheme) out.push(scheme[1]!)
  const n = name.trim().toLowerCase()
  if (n === 'cookie' || n === 'cookie2') for (const pair of value.split(';')) out.push(pair.slice(pair.indexOf('=') + 1))
  if (n === 'set-cookie' || n === 'set-cookie2') {
    const first = value.split(';')[0] ?? ''
    out.push(first.slice(first.indexOf('=') + 1))
  }
  return out
}
