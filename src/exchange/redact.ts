// Credentials out of exports by default (docs/architecture.md#redaction): header values (by name, and any
// `Bearer …` value), URL user info, query and fragment parameters (`&` or `;` separated),
// path segments that are keys, request body fields in every readable format (redact-body.ts),
// and, by value, any of those values found anywhere else in the same export, the response
// body and its chunks included (redact-echo.ts). The user's list (redact-user.ts) adds names,
// and values and patterns replaced wherever they appear. Everything else is kept byte for
// byte, and the export lists what was removed.

import { redactBodyText, redactParams } from './redact-body.js'
import { echoNeedles, replaceEchoes, replaceEchoesInChunks } from './redact-echo.js'
import {
  REDACTED, RedactionLog, headerValues, isSecretHeader, isSecretHeaderValue, isSecretSegment, type RedactNames, type Redaction,
} from './redact-names.js'
import { listedPatterns, listedValues } from './redact-user.js'
import type { CapturedChunk, CapturedRequest, Header, Recording } from './types.js'

export {
  MIN_LISTED_VALUE, MIN_PATTERN_LITERAL, NO_RULES, checkRedactionRules, compilePattern, rulesFromLines,
  type RedactionRules, type RuleProblem,
} from './redact-user.js'
export { REDACTED, RedactionLog, isSecretField, isSecretHeader, isSecretHeaderValue, isSecretParam, isSecretSegment, type Redaction, type RedactNames } from './redact-names.js'

/** Headers with credential values replaced by `[REDACTED]`; a copy, unchanged when `include` is true. */
export function redactHeaders(headers: readonly Header[], include = false, log = new RedactionLog(), where: 'request header' | 'response header' = 'request header'): Header[] {
  return headers.map((h) => {
    if (include || !(isSecretHeader(h.name) || isSecretHeaderValue(h.value) || log.listedByUser(h.name))) return { name: h.name, value: h.value }
    log.add(where, h.name, ...headerValues(h.name, h.value))
    return { name: h.name, value: REDACTED }
  })
}

/**
 * The URL with credentials replaced by `[REDACTED]`: user info, query and fragment parameters
 * (`#access_token=…`, `?a=1;key=…`), `;` parameters of path segments, and path segments that
 * are keys (a known key shape, or what follows `/key/`, `/token/`…). The rest of the text is
 * kept exactly: no normalisation, no re-encoding.
 */
export function redactUrl(url: string, include = false, log = new RedactionLog()): string {
  if (include) return url
  let hashAt = url.indexOf('#')
  if (hashAt < 0) hashAt = url.length
  const queryAt = url.indexOf('?')
  const beforeQuery = queryAt >= 0 && queryAt < hashAt ? queryAt : hashAt
  const head = redactHead(url.slice(0, beforeQuery), log)
  const query = beforeQuery === hashAt ? '' : '?' + redactParams(url.slice(queryAt + 1, hashAt), log, 'url')
  const fragment = hashAt < url.length ? '#' + redactFragment(url.slice(hashAt + 1), log) : ''
  return head + query + fragment
}

/** `#access_token=…&state=…`, or a client-side route `#/cb?code=…`: its parameters redacted. */
function redactFragment(fragment: string, log: RedactionLog): string {
  const q = fragment.indexOf('?')
  if (q >= 0) return fragment.slice(0, q + 1) + redactParams(fragment.slice(q + 1), log, 'url')
  return fragment.includes('=') ? redactParams(fragment, log, 'url') : fragment
}

/** scheme://userinfo@host/path: the user info, and the path's segments. */
function redactHead(head: string, log: RedactionLog): string {
  let authority = ''
  let path = head
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)([^/?#]*)/.exec(head)
  if (m) {
    const hostPart = m[2]!
    const at = hostPart.lastIndexOf('@')
    if (at >= 0) {
      const info = hostPart.slice(0, at)
      log.add('url', 'user info', info, decodeSegment(info), decodeSegment(info.slice(info.indexOf(':') + 1)))
      authority = m[1]! + REDACTED + hostPart.slice(at)
    } else {
      authority = m[0]
    }
    path = head.slice(m[0].length)
  }
  let previous: string | null = null
  let n = 0
  const segments = path.split('/').map((segment, i) => {
    if (i === 0 && segment === '') return segment
    n++
    const semi = segment.indexOf(';')
    const bare = semi < 0 ? segment : segment.slice(0, semi)
    const params = semi < 0 ? '' : ';' + redactParams(segment.slice(semi + 1), log, 'url', /;/)
    const decoded = decodeSegment(bare)
    const secret = isSecretSegment(decoded, previous)
    previous = decoded
    if (!secret) return bare + params
    log.add('url', `path segment ${n}`, bare, decoded)
    return REDACTED + params
  })
  return authority + segments.join('/')
}

function decodeSegment(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * A request body with credential fields replaced by `"[REDACTED]"`: JSON at any depth (after
 * a byte order mark too), NDJSON line by line, multipart parts by name, form-encoded bodies
 * as query strings. A body in none of these formats is replaced by a note. Unchanged when
 * `include` is true.
 */
export function redactBody(text: string, include = false, log = new RedactionLog()): string {
  if (include || text.length === 0) return text
  return redactBodyText(text, log)
}

/** A request and its response body as an export may hold them, with what was removed. */
export interface RedactedRecording {
  request: CapturedRequest
  /** The response body's chunks, with redacted values found in them replaced (the input's when none). */
  chunks: readonly CapturedChunk[]
  /** What was left out, in the order found; empty when credentials were included. */
  redactions: Redaction[]
  /** True when the response body changed (an echoed secret): its Reply must be rebuilt. */
  bodyChanged: boolean
  /**
   * Any other text of the same export (JSON Lines of the frames) with every value removed
   * above, and the user's values and patterns, replaced; what it finds joins `redactions`
   * (as the response body's). The text unchanged when credentials were included.
   */
  scrub(text: string): string
}

/**
 * Everything one export holds of a recording, redacted together: headers, URL and request
 * body by name, then every value removed there found again anywhere else (the other headers,
 * the URL, the request body, the response body and its chunks) by value.
 */
export function redactRecording(input: Recording, options: RedactNames & { includeCredentials?: boolean } = {}): RedactedRecording {
  const { request } = input
  if (options.includeCredentials === true) return { request, chunks: input.chunks, redactions: [], bodyChanged: false, scrub: (text) => text }
  const log = new RedactionLog(options)
  for (const v of listedValues(options)) log.listedValue(v.text, v.label)
  const patterns = listedPatterns(options)
  const url = redactUrl(request.url, false, log)
  const requestHeaders = redactHeaders(request.requestHeaders, false, log, 'request header')
  const responseHeaders = redactHeaders(request.responseHeaders, false, log, 'response header')
  const requestBody = request.requestBody === null ? null : redactBody(request.requestBody, false, log)
  const needles = echoNeedles(log.values)
  const echo = (where: Redaction['where']) => (name: string) => log.add(where, name)
  const headersEchoed = (headers: Header[], where: Redaction['where']) =>
    headers.map((h) => (h.value === REDACTED ? h : { name: h.name, value: replaceEchoes(h.value, needles, echo(where), patterns) }))
  const redacted: CapturedRequest = {
    ...request,
    url: replaceEchoes(url, needles, echo('url'), patterns),
    requestHeaders: headersEchoed(requestHeaders, 'request header'),
    responseHeaders: headersEchoed(responseHeaders, 'response header'),
    requestBody: requestBody === null ? null : replaceEchoes(requestBody, needles, echo('request body'), patterns),
  }
  const chunks = replaceEchoesInChunks(input.chunks, needles, echo('response body'), patterns)
  return {
    request: redacted,
    chunks,
    redactions: log.removed,
    bodyChanged: chunks !== input.chunks,
    scrub: (text) => replaceEchoes(text, needles, echo('response body'), patterns),
  }
}

/**
 * Text with the user's listed values and patterns replaced by `[REDACTED]` (no default rule:
 * for what is made from an already redacted text, such as an export's file name).
 */
export function redactListed(text: string, options: RedactNames = {}): string {
  const values = listedValues(options)
  const patterns = listedPatterns(options)
  if (values.length === 0 && patterns.length === 0) return text
  return replaceEchoes(text, echoNeedles(new Map(values.map((v) => [v.text, v.label]))), () => {}, patterns)
}

/** What an export takes of the user's list (ExportOptions / CurlOptions): names, values, patterns. */
export function userRules(options: { redactNames?: readonly string[]; redactValues?: readonly string[]; redactPatterns?: readonly string[] }): RedactNames {
  return { names: options.redactNames ?? [], values: options.redactValues ?? [], patterns: options.redactPatterns ?? [] }
}
