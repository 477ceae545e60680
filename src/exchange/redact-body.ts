// Request bodies, redacted by field name in every format that can be read (docs/architecture.md#redaction):
// JSON (any depth: the scanner keeps its own stack), JSON after a byte order mark, NDJSON,
// multipart/form-data and form-encoded bodies. Only the values change; every other character
// is kept. A body in no readable format is replaced by a note, since what it carries is unknown.

import { REDACTED, RedactionLog, isSecretField, isSecretParam } from './redact-names.js'

const QUOTED = JSON.stringify(REDACTED)

/** The body with credential values replaced; `log` records what and which values. */
export function redactBodyText(text: string, log: RedactionLog): string {
  if (/^\s*$/.test(text)) return text
  const bom = text.charCodeAt(0) === 0xfeff ? '\ufeff' : ''
  const rest = bom === '' ? text : text.slice(1)
  const json = redactJson(rest, log)
  if (json !== null) return bom + json
  const lines = redactNdjson(rest, log)
  if (lines !== null) return bom + lines
  const multipart = redactMultipart(rest, log)
  if (multipart !== null) return bom + multipart
  if (/^[^\s=&]+=[^\s&]*(&[^\s=&]*(=[^\s&]*)?)*$/.test(rest)) return bom + redactParams(rest, log, 'request body', /&/)
  log.add('request body', 'the whole body (not JSON, NDJSON, a form or multipart)')
  return `${REDACTED} a request body of ${text.length} character${text.length === 1 ? '' : 's'} that is not JSON, NDJSON, a form or multipart was left out: export with credentials to keep it`
}

/**
 * `a=1&key=…` (or `;`-separated) with credential values replaced; separators and order kept.
 * Names are decoded to be judged; values are recorded decoded and as written.
 */
export function redactParams(query: string, log: RedactionLog, where: 'url' | 'request body', separators = /[&;]/): string {
  const out: string[] = []
  let at = 0
  const re = new RegExp(separators.source, 'g')
  for (;;) {
    const m = re.exec(query)
    const end = m === null ? query.length : m.index
    out.push(redactParam(query.slice(at, end), log, where))
    if (m === null) break
    out.push(m[0])
    at = end + m[0].length
  }
  return out.join('')
}

function redactParam(part: string, log: RedactionLog, where: 'url' | 'request body'): string {
  const eq = part.indexOf('=')
  if (eq < 0) return part
  const rawName = part.slice(0, eq)
  const name = decodeParam(rawName)
  if (!isSecretParam(name) && !log.listedByUser(name)) return part
  const raw = part.slice(eq + 1)
  log.add(where, name, raw, decodeParam(raw))
  return rawName + '=' + REDACTED
}

export function decodeParam(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/** A JSON text with credential values replaced, or null when the text is not JSON. */
export function redactJson(text: string, log: RedactionLog): string | null {
  const spans = secretJsonSpans(text, log)
  if (spans === null) return null
  if (spans.length === 0) return text
  const out: string[] = []
  let at = 0
  for (const [start, end] of spans) {
    out.push(text.slice(at, start), QUOTED)
    at = end
  }
  out.push(text.slice(at))
  return out.join('')
}

/** Every non-blank line a JSON value: each redacted, line endings kept. Null otherwise (or for a single line). */
function redactNdjson(text: string, log: RedactionLog): string | null {
  const lines = text.split(/(\r\n|\r|\n)/)
  if (lines.filter((l, i) => i % 2 === 0 && l.trim() !== '').length < 2) return null
  const trial = new RedactionLog()
  for (let i = 0; i < lines.length; i += 2) if (lines[i]!.trim() !== '' && secretJsonSpans(lines[i]!, trial) === null) return null
  return lines.map((l, i) => (i % 2 === 1 || l.trim() === '' ? l : redactJson(l, log)!)).join('')
}

/**
 * multipart/form-data: each part's content is replaced when its name is a credential, and
 * redacted field by field when it is JSON; other parts are kept. Null unless the body opens
 * with a boundary line and every part has its headers.
 */
function redactMultipart(text: string, log: RedactionLog): string | null {
  const open = /^--([^\r\n]{1,200})(\r?\n)/.exec(text)
  if (!open) return null
  const delimiter = open[2]! + '--' + open[1]!
  const out: string[] = [open[0]]
  let at = open[0].length
  for (;;) {
    const next = text.indexOf(delimiter, at)
    if (next < 0) return null
    const part = text.slice(at, next)
    const head = /^([\s\S]*?)(\r?\n\r?\n)/.exec(part)
    if (!head || !/content-disposition/i.test(head[1]!)) return null
    const name = /\bname="([^"]*)"/i.exec(head[1]!)?.[1] ?? ''
    const content = part.slice(head[0].length)
    out.push(head[0])
    if (isSecretField(name) || isSecretParam(name) || log.listedByUser(name)) {
      log.add('request body', name, content)
      out.push(REDACTED)
    } else {
      out.push(redactJson(content, log) ?? content)
    }
    out.push(delimiter)
    at = next + delimiter.length
    if (text.startsWith('--', at)) {
      out.push(text.slice(at))
      return out.join('')
    }
  }
}

interface Open {
  object: boolean
  /** Everything inside is a credential (a secret key's value). */
  secret: boolean
  /** Object: the next token is a key; array: the next token is a value. */
  wantKey: boolean
  /** The container has no member yet (a closing bracket may come). */
  empty: boolean
}

const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y

/**
 * Character ranges of the values to redact in a JSON text, or null when the text is not JSON.
 * A scanner rather than JSON.parse, so the output keeps the input's formatting; its own stack,
 * so any depth reads.
 */
function secretJsonSpans(text: string, log: RedactionLog): Array<[number, number]> | null {
  const spans: Array<[number, number]> = []
  const stack: Open[] = []
  const n = text.length
  let i = 0
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i)
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++
      else break
    }
  }
  /** The string at i: its end, or -1. */
  const string = (): number => {
    if (text.charCodeAt(i) !== 0x22) return -1
    for (let k = i + 1; k < n; k++) {
      const c = text.charCodeAt(k)
      if (c === 0x22) return k + 1
      if (c === 0x5c) k++
      else if (c < 0x20) return -1
    }
    return -1
  }
  let secret = false // of the value about to be read
  let name = ''
  for (;;) {
    ws()
    // a value
    const start = i
    const c = text.charCodeAt(i)
    if (c === 0x7b || c === 0x5b) {
      stack.push({ object: c === 0x7b, secret, wantKey: c === 0x7b, empty: true })
      i++
    } else if (c === 0x22) {
      const end = string()
      if (end < 0) return null
      i = end
      if (secret) { spans.push([start, end]); log.value(unquote(text.slice(start, end)), `request body ${name}`) }
    } else {
      LITERAL.lastIndex = i
      const m = LITERAL.exec(text)
      if (!m) return null
      i += m[0].length
      if (secret && m[0] !== 'null' && m[0] !== 'true' && m[0] !== 'false') { spans.push([start, i]); log.value(m[0], `request body ${name}`) }
    }
    // what follows: members, closings, the next key
    for (;;) {
      ws()
      const top = stack[stack.length - 1]
      if (top === undefined) return i === n ? spans : null
      const d = text.charCodeAt(i)
      if ((d === 0x7d && top.object) || (d === 0x5d && !top.object)) {
        if (!top.empty && top.wantKey) return null // a comma before the bracket
        stack.pop()
        i++
        continue
      }
      if (!top.empty && !top.wantKey) {
        if (d !== 0x2c) return null
        i++
        ws()
        top.wantKey = top.object
        if (!top.object) { secret = top.secret; break }
      }
      if (top.object) {
        const end = string()
        if (end < 0) return null
        const key = unquote(text.slice(i, end))
        i = end
        ws()
        if (text.charCodeAt(i) !== 0x3a) return null
        i++
        top.wantKey = false
        top.empty = false
        secret = top.secret || isSecretField(key) || log.listedByUser(key)
        if (secret && !top.secret) { name = key; log.add('request body', key) }
        break
      }
      // an array's first value
      top.empty = false
      secret = top.secret
      break
    }
  }
}

function unquote(token: string): string {
  try {
    return JSON.parse(token) as string
  } catch {
    return token
  }
}
