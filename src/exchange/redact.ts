// Credentials out of exports by default (docs/architecture.md#redaction): header values, URL query parameters and
// user info, and secret-looking fields of JSON (or form-encoded) request bodies. Everything
// else is kept byte for byte, so a redacted export still shows what was sent.

import type { Header } from './types.js'

export const REDACTED = '[REDACTED]'

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'cookie2', 'set-cookie2'])

/**
 * True for headers that carry credentials: Authorization, Proxy-Authorization, Cookie,
 * Set-Cookie, and any name containing api-key / apikey / api_key, token, secret, session,
 * password or credential (case-insensitive). `…-tokens` counters (x-ratelimit-remaining-tokens,
 * anthropic-ratelimit-tokens-remaining) are not credentials and are kept.
 */
export function isSecretHeader(name: string): boolean {
  const n = name.trim().toLowerCase()
  if (SECRET_HEADERS.has(n)) return true
  return /api[-_]?key|token(?!s)|secret|session|password|passwd|credential|subscription-key/.test(n)
}

/** Query / form parameter names whose value is a credential. */
const SECRET_PARAMS = new Set(['key', 'sig', 'auth', 'authorization', 'pass', 'pwd', 'code_verifier'])

/**
 * True for query parameters that carry credentials: key, api_key, apikey, api-key, token,
 * access_token, id_token, sig, signature, secret, client_secret, password, session…,
 * X-Amz-Signature / X-Amz-Credential / X-Amz-Security-Token (case-insensitive).
 */
export function isSecretParam(name: string): boolean {
  const n = name.trim().toLowerCase()
  if (SECRET_PARAMS.has(n)) return true
  return /api[-_]?key|token(?!s)|secret|session|password|passwd|signature|credential|subscription-key/.test(n)
}

/** JSON body field names whose value is a credential (max_tokens and other counters are not). */
export function isSecretField(name: string): boolean {
  // camelCase → snake_case, so apiKey, accessToken and clientSecret read like their snake forms
  const n = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/[-\s]/g, '_')
  if (n === 'key' || n === 'auth' || n === 'authorization' || n === 'password' || n === 'passwd' || n === 'cookie') return true
  return /(^|_)(api_?key|secret|client_secret|secret_key|private_key|access_key|password|credentials?)$/.test(n) ||
    /(^|_)token$/.test(n) // access_token, refresh_token, id_token, session_token, token — not max_tokens
}

/** Headers with credential values replaced by `[REDACTED]`; a copy, unchanged when `include` is true. */
export function redactHeaders(headers: readonly Header[], include = false): Header[] {
  return headers.map((h) => ({ name: h.name, value: !include && isSecretHeader(h.name) ? REDACTED : h.value }))
}

/**
 * The URL with credential query parameters (and any user:password@) replaced by `[REDACTED]`.
 * The rest of the text is kept exactly: no normalisation, no re-encoding.
 */
export function redactUrl(url: string, include = false): string {
  if (include) return url
  let hashAt = url.indexOf('#')
  if (hashAt < 0) hashAt = url.length
  const queryAt = url.indexOf('?')
  const beforeQuery = queryAt >= 0 && queryAt < hashAt ? queryAt : hashAt
  let head = url.slice(0, beforeQuery)
  // scheme://userinfo@host — userinfo ends at the last @ before the path
  const authority = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)([^/?#]*)/.exec(head)
  if (authority) {
    const at = authority[2]!.lastIndexOf('@')
    if (at >= 0) head = authority[1]! + REDACTED + authority[2]!.slice(at) + head.slice(authority[0].length)
  }
  if (beforeQuery === hashAt) return head + url.slice(hashAt)
  const query = redactParams(url.slice(queryAt + 1, hashAt))
  return head + '?' + query + url.slice(hashAt)
}

/** `a=1&key=…` with credential values replaced; separators and order kept. */
function redactParams(query: string): string {
  return query
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=')
      const rawName = eq < 0 ? part : part.slice(0, eq)
      if (eq < 0 || !isSecretParam(decodeParam(rawName))) return part
      return rawName + '=' + REDACTED
    })
    .join('&')
}

function decodeParam(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/**
 * A request body with credential fields replaced by `"[REDACTED]"`: JSON bodies (any depth;
 * string and number values of fields like api_key, apiKey, token, access_token, secret,
 * password) and form-encoded bodies (as query strings). Other text is returned unchanged;
 * the rest of a JSON body keeps its exact formatting.
 */
export function redactBody(text: string, include = false): string {
  if (include || text.length === 0) return text
  const spans = secretJsonSpans(text)
  if (spans !== null) {
    if (spans.length === 0) return text
    let out = ''
    let at = 0
    for (const [start, end] of spans) {
      out += text.slice(at, start) + JSON.stringify(REDACTED)
      at = end
    }
    return out + text.slice(at)
  }
  if (/^[^\s=&]+=[^\s&]*(&[^\s=&]*(=[^\s&]*)?)*$/.test(text)) return redactParams(text)
  return text
}

/**
 * Character ranges of the values to redact in a JSON text, or null when the text is not
 * JSON. A small scanner rather than JSON.parse, so the output keeps the input's formatting.
 */
function secretJsonSpans(text: string): Array<[number, number]> | null {
  const spans: Array<[number, number]> = []
  let i = 0
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }
  const fail = (): never => {
    throw new NotJson()
  }
  const string = (): string => {
    const start = i
    if (text[i] !== '"') fail()
    i++
    while (i < text.length) {
      const c = text[i]
      if (c === '"') {
        i++
        return JSON.parse(text.slice(start, i)) as string
      }
      if (c === '\\') i++
      else if (c !== undefined && c < ' ') fail()
      i++
    }
    return fail()
  }
  const value = (secret: boolean, depth: number): void => {
    if (depth > 512) fail()
    ws()
    const c = text[i]
    const start = i
    if (c === '{') {
      i++
      ws()
      if (text[i] === '}') { i++; return }
      for (;;) {
        ws()
        const key = string()
        ws()
        if (text[i] !== ':') fail()
        i++
        value(secret || isSecretField(key), depth + 1)
        ws()
        if (text[i] === ',') { i++; continue }
        if (text[i] === '}') { i++; return }
        fail()
      }
    }
    if (c === '[') {
      i++
      ws()
      if (text[i] === ']') { i++; return }
      for (;;) {
        value(secret, depth + 1)
        ws()
        if (text[i] === ',') { i++; continue }
        if (text[i] === ']') { i++; return }
        fail()
      }
    }
    if (c === '"') {
      string()
      if (secret) spans.push([start, i])
      return
    }
    LITERAL.lastIndex = i
    const m = LITERAL.exec(text)
    if (!m) return fail()
    i += m[0].length
    if (secret && m[0] !== 'null' && m[0] !== 'true' && m[0] !== 'false') spans.push([start, i])
  }
  try {
    value(false, 0)
    ws()
    if (i !== text.length) return null
    return spans
  } catch (e) {
    if (e instanceof NotJson || e instanceof SyntaxError) return null
    throw e
  }
}

class NotJson extends Error {}

const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y
