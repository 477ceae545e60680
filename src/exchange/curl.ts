// Copy as cURL: a command for any POSIX shell (sh, dash, bash, zsh). Every argument is
// single-quoted, so nothing in it is expanded ($, `, \, !, newlines stay literal).

import { transportFromContentType } from '../library.js'
import { redactRecording, userRules } from './redact.js'
import type { CapturedRequest } from './types.js'

export interface CurlOptions {
  /** Keep Authorization, cookies, API keys and tokens. Off by default. */
  includeCredentials?: boolean
  /** Add --no-buffer so the stream prints as it arrives. Default: unless the response is known not to be a stream. */
  stream?: boolean
  /** More header, parameter and field names to redact (case-insensitive), beside the defaults. */
  redactNames?: readonly string[]
  /** Values and wildcard patterns to replace wherever they appear (ExportOptions). */
  redactValues?: readonly string[]
  redactPatterns?: readonly string[]
}

/** Headers curl sets itself, or that would make the copy wrong: HTTP/2 pseudo-headers, Content-Length, Accept-Encoding (a compressed stream would print as bytes). */
const SKIPPED = /^(:|content-length$|accept-encoding$|connection$|transfer-encoding$|keep-alive$|upgrade$)/i

/** Quotes one argument for a POSIX shell: '…' with each ' written as '\''. */
export function shellQuote(arg: string): string {
  if (arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg
  return "'" + arg.replace(/'/g, "'\\''") + "'"
}

/** The curl command that repeats the request; credentials are redacted unless asked for. */
export function toCurl(request: CapturedRequest, options: CurlOptions = {}): string {
  const include = options.includeCredentials === true
  const redacted = redactRecording({ request, chunks: [] }, { includeCredentials: include, ...userRules(options) }).request
  const url = redacted.url
  const body = redacted.requestBody
  const method = request.method.toUpperCase()
  const args: string[][] = [['curl', url]]
  // [] and {} in a URL are curl's globbing syntax ([REDACTED] would be read as a range)
  if (/[[\]{}]/.test(url)) args.push(['--globoff'])
  const implied = body === null ? 'GET' : 'POST'
  if (method !== implied || (method === 'GET' && body !== null)) args.push(['-X', request.method])
  for (const h of redacted.requestHeaders) {
    if (SKIPPED.test(h.name)) continue
    // "Name;" sends an empty header; "Name:" would remove it
    args.push(['-H', h.value === '' ? `${h.name};` : `${h.name}: ${h.value}`])
  }
  if (body !== null) args.push(['--data-raw', body])
  if (options.stream ?? isStream(request)) args.push(['--no-buffer'])
  return args.map((a) => a.map(shellQuote).join(' ')).join(' \\\n  ')
}

function isStream(request: CapturedRequest): boolean {
  if (request.contentType === null) return true
  const t = transportFromContentType(request.contentType)
  if (t !== null) return t.transport !== 'unknown'
  // a non-stream type (text/plain, application/json) may still carry a stream: only
  // an explicit non-streaming request body turns --no-buffer off
  return !(request.requestBody !== null && /"stream"\s*:\s*false/.test(request.requestBody))
}
