// File names for exports: host, last path segments and the request's start time, safe on
// every file system.

import { REDACTED, redactListed, redactUrl, type RedactNames } from './redact.js'
import type { CapturedRequest } from './types.js'

export type ExportKind = 'fixture' | 'har' | 'test' | 'jsonl' | '.sse' | '.ndjson' | '.json' | '.txt' | '.bin'

const SUFFIX: Record<ExportKind, string> = {
  fixture: '.deltascope.json',
  har: '.har',
  test: '.test.ts',
  jsonl: '.jsonl',
  '.sse': '.sse',
  '.ndjson': '.ndjson',
  '.json': '.json',
  '.txt': '.txt',
  '.bin': '.bin',
}

/**
 * e.g. `api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.deltascope.json`. Made from
 * the redacted URL whatever the export holds: a key in the path never names a file, nor does a
 * value or pattern the user listed (`rules`), in the path or the host.
 */
export function exportFileName(request: Pick<CapturedRequest, 'url' | 'startedAt'>, kind: ExportKind, rules: RedactNames = {}): string {
  const url = redactListed(redactUrl(request.url), rules)
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/(?:[^/?#@]*@)?([^/?#:]*)[^/?#]*([^?#]*)/.exec(url)
  const host = m?.[1]?.includes(REDACTED) ? '' : m?.[1] ?? ''
  const path = (m?.[2] ?? url.replace(/[?#].*$/, '')).split('/').filter((s) => s !== '' && !s.includes(REDACTED)).slice(-3).join('-')
  const time = Number.isFinite(request.startedAt) && request.startedAt > 0
    ? new Date(request.startedAt).toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')
    : ''
  const base = [host, path, time].map(safe).filter((s) => s !== '').join('_') || 'deltascope'
  return base.slice(0, 120) + SUFFIX[kind]
}

function safe(part: string): string {
  let decoded = part
  try {
    decoded = decodeURIComponent(part)
  } catch {
    // keep it encoded
  }
  return decoded.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '')
}
