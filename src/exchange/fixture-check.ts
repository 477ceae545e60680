// The fixture's field checker (parseFixture in fixture.ts): every field read with its type
// checked, and an error that names the field and what it got.

import { checkRules, choiceMessages, PROVIDER_IDS, RULES_PROVIDER_ID } from '../library.js'
import type { Reply, ReplyMessage, Transport } from '../library.js'
import { base64Decode } from './bytes.js'
import type { Redaction } from './redact.js'
import type { ForcedOptions, Header } from './types.js'
import { isObject } from './shared.js'

/** A fixture that cannot be read: the message names the field. */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FixtureError'
  }
}

/** One network chunk: `text` when its bytes are valid UTF-8 on their own, else `base64`. */
export type FixtureChunk =
  | { t: number | null; text: string }
  | { t: number | null; base64: string }

const TRANSPORTS: readonly Transport[] = ['sse', 'ndjson', 'json', 'data-stream', 'eventstream', 'connect', 'unknown']
const REDACTION_PLACES: ReadonlyArray<Redaction['where']> = ['url', 'request header', 'response header', 'request body', 'response body']

type Obj = Record<string, unknown>

export function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)
  if (typeof v === 'object') return 'an object'
  if (v === undefined) return 'nothing'
  return `${typeof v} ${String(v)}`
}

export class Checker {
  private fail(path: string, expected: string, got: unknown): never {
    throw new FixtureError(`${path}: expected ${expected}, got ${describe(got)}`)
  }

  private at(parent: string, key: string): string {
    return parent ? `${parent}.${key}` : key
  }

  object(o: Obj, key: string, parent = ''): Obj {
    const v = o[key]
    if (!isObject(v)) this.fail(this.at(parent, key), 'an object', v)
    return v
  }

  array(o: Obj, key: string, parent: string): unknown[] {
    const v = o[key]
    if (!Array.isArray(v)) this.fail(this.at(parent, key), 'an array', v)
    return v
  }

  string(o: Obj, key: string, parent: string): string {
    const v = o[key]
    if (typeof v !== 'string') this.fail(this.at(parent, key), 'a string', v)
    return v
  }

  stringOrNull(o: Obj, key: string, parent: string): string | null {
    const v = o[key]
    if (v !== null && typeof v !== 'string') this.fail(this.at(parent, key), 'a string or null', v)
    return v
  }

  number(o: Obj, key: string, parent: string): number {
    const v = o[key]
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(this.at(parent, key), 'a number', v)
    return v
  }

  integerOrNull(o: Obj, key: string, parent: string): number | null {
    const v = o[key]
    if (v !== null && !Number.isInteger(v)) this.fail(this.at(parent, key), 'an integer or null', v)
    return v as number | null
  }

  boolean(o: Obj, key: string, parent: string): boolean {
    const v = o[key]
    if (typeof v !== 'boolean') this.fail(this.at(parent, key), 'true or false', v)
    return v
  }

  oneOf<T extends string>(v: unknown, allowed: readonly T[], path: string): T {
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) this.fail(path, `one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`, v)
    return v as T
  }

  base64(v: unknown, path: string): string {
    if (typeof v !== 'string') this.fail(path, 'a base64 string', v)
    try {
      base64Decode(v)
    } catch (e) {
      throw new FixtureError(`${path}: ${(e as Error).message}`)
    }
    return v
  }

  redactions(list: unknown): Redaction[] {
    if (!Array.isArray(list)) this.fail('meta.redactions', 'an array of {where, name}', list)
    return list.map((r, i) => {
      const path = `meta.redactions[${i}]`
      if (!isObject(r)) this.fail(path, 'an object {where, name}', r)
      return { where: this.oneOf(r.where, REDACTION_PLACES, `${path}.where`), name: this.string(r, 'name', path) }
    })
  }

  forced(f: unknown): ForcedOptions {
    if (!isObject(f)) this.fail('forced', 'an object {provider?, transport?, rules?}', f)
    const out: ForcedOptions = {}
    if (f.provider !== undefined) out.provider = this.oneOf(f.provider, PROVIDER_IDS, 'forced.provider')
    if (f.transport !== undefined) out.transport = this.oneOf(f.transport, TRANSPORTS, 'forced.transport')
    if (f.rules !== undefined) {
      const check = checkRules(f.rules)
      if (!check.ok) throw new FixtureError(`forced.rules: ${check.errors.join('; ')}`)
      out.rules = check.rules
    }
    return out
  }

  headers(o: Obj, key: string, parent: string): Header[] {
    const path = this.at(parent, key)
    const v = o[key]
    if (!Array.isArray(v)) this.fail(path, 'an array of {name, value}', v)
    return v.map((h, i) => {
      if (!isObject(h)) this.fail(`${path}[${i}]`, 'an object {name, value}', h)
      return { name: this.string(h, 'name', `${path}[${i}]`), value: this.string(h, 'value', `${path}[${i}]`) }
    })
  }

  chunk(c: unknown, path: string): FixtureChunk {
    if (!isObject(c)) this.fail(path, 'an object {t, text} or {t, base64}', c)
    const t = c.t
    if (t !== null && (typeof t !== 'number' || !Number.isFinite(t))) this.fail(`${path}.t`, 'a number (ms since the request started) or null', t)
    const hasText = c.text !== undefined
    const hasBase64 = c.base64 !== undefined
    if (hasText === hasBase64) {
      throw new FixtureError(`${path}: expected exactly one of "text" and "base64", got ${hasText ? 'both' : 'neither'}`)
    }
    if (hasText) return { t, text: this.string(c, 'text', path) }
    return { t, base64: this.base64(c.base64, `${path}.base64`) }
  }

  reply(r: unknown, path: string): Reply {
    if (!isObject(r)) this.fail(path, 'the Reply object', r)
    const transport = this.oneOf(r.transport, TRANSPORTS, `${path}.transport`)
    // a stream read with user rules names the provider "rules"
    const provider = this.oneOf(r.provider, [...PROVIDER_IDS, RULES_PROVIDER_ID], `${path}.provider`)
    const done = this.boolean(r, 'done', path)
    const frameCount = r.frameCount
    if (!Number.isInteger(frameCount) || (frameCount as number) < 0) this.fail(`${path}.frameCount`, 'a whole number', frameCount)
    const choices = this.array(r, 'choices', path).map((c, i) => this.choice(c, `${path}.choices[${i}]`))
    const usage = r.usage
    if (usage !== null && !isObject(usage)) this.fail(`${path}.usage`, 'an object or null', usage)
    const errors = this.array(r, 'errors', path).map((e, i) => {
      const p = `${path}.errors[${i}]`
      if (!isObject(e)) this.fail(p, 'an object', e)
      return {
        frame: this.integer(e, 'frame', p), offset: this.integer(e, 'offset', p), line: this.integer(e, 'line', p),
        raw: this.string(e, 'raw', p), message: this.string(e, 'message', p),
      }
    })
    // a fixture written before Reply.messages existed: each choice as its message (a stream
    // whose deltas name messages then differs from it there, and says so when compared)
    const messages = r.messages === undefined ? choiceMessages(choices) : this.array(r, 'messages', path).map((m, i) => {
      if (!isObject(m) || !Array.isArray(m.parts)) this.fail(`${path}.messages[${i}]`, 'an object with parts', m)
      return m as unknown as ReplyMessage
    })
    return { transport, provider, done, frameCount: frameCount as number, choices, messages, usage: usage as Record<string, unknown> | null, errors }
  }

  private integer(o: Obj, key: string, parent: string): number {
    const v = o[key]
    if (!Number.isInteger(v)) this.fail(this.at(parent, key), 'an integer', v)
    return v as number
  }

  private choice(c: unknown, path: string): Reply['choices'][number] {
    if (!isObject(c)) this.fail(path, 'an object', c)
    return {
      index: this.integer(c, 'index', path),
      role: this.stringOrNull(c, 'role', path),
      content: this.string(c, 'content', path),
      reasoning: this.string(c, 'reasoning', path),
      refusal: this.string(c, 'refusal', path),
      toolCalls: this.array(c, 'toolCalls', path).map((t, i) => {
        const p = `${path}.toolCalls[${i}]`
        if (!isObject(t)) this.fail(p, 'an object', t)
        if (!('parsedArguments' in t)) this.fail(`${p}.parsedArguments`, 'a value or null', undefined)
        return {
          index: this.integer(t, 'index', p),
          id: this.stringOrNull(t, 'id', p),
          type: this.stringOrNull(t, 'type', p),
          name: this.stringOrNull(t, 'name', p),
          arguments: this.string(t, 'arguments', p),
          parsedArguments: t.parsedArguments,
          argumentsError: this.stringOrNull(t, 'argumentsError', p),
        }
      }),
      finishReason: this.stringOrNull(c, 'finishReason', path),
    }
  }
}
