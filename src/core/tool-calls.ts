// Tool-call identity (docs/architecture.md#tool-calls): which call a fragment belongs to, how its id, type
// and name are kept, and the identity oddities worth a diagnostic (an index reused by another
// call, a fragment without an index, a name that does not continue the one before). One table
// per choice; the accumulator keeps each call's arguments and provenance. Every rule is O(1)
// per fragment: a Map lookup and a few string comparisons.

import { TextBuffer } from './text-buffer.js'
import type { FinalToolCallDelta, ToolCallDelta } from './adapters.js'

/** What the identity rules read and write on a call; the accumulator's call state extends it. */
export interface CallIdentity {
  /** The wire key (OpenAI index, Anthropic block, Responses output_index); the order of arrival where the wire has none. */
  readonly index: number
  id: string | null
  type: string | null
  name: string | null
  /** An arguments fragment has arrived: a different name after it is another call, not a name fragment. */
  hasArguments: boolean
  /** A fragment without a wire index started or continued it (reported once per call). */
  keyless: boolean
}

export type IdentityProblemCode = 'reused-tool-index' | 'missing-tool-index' | 'tool-name-changed'

/** Called on the (rare) fragment whose identity is odd; the accumulator adds the frame. */
export type ReportIdentityProblem = (code: IdentityProblemCode, message: string) => void

/** `""` and `"null"` are placeholders some servers send on continuation fragments. */
export function isRealId(id: string | null | undefined): id is string {
  return typeof id === 'string' && id !== '' && id !== 'null'
}

export function nonEmpty(s: string | null | undefined): s is string {
  return typeof s === 'string' && s !== ''
}

export class ToolCallTable<T extends CallIdentity> {
  /** In order of arrival. */
  readonly calls: T[] = []
  /** The latest call at each wire key: continuation fragments go there. */
  private readonly byKey = new Map<number, T>()
  /** The latest call with each real id: a keyless fragment naming it continues it. */
  private readonly byId = new Map<string, T>()
  /**
   * Each call's name as parts: a name that grows by a fragment a frame is compared without
   * joining it (`call.name` is the same text, concatenated, read only when asked for).
   */
  private readonly names = new Map<T, TextBuffer>()
  /** The call a keyless fragment continues. */
  private last: T | null = null

  constructor(
    private readonly choice: number,
    private readonly create: (index: number) => T,
    private readonly report: ReportIdentityProblem,
  ) {}

  /** The call this fragment belongs to, with the fragment's id, type and name applied (not its arguments). */
  apply(d: ToolCallDelta): T {
    const call = this.callFor(d)
    this.last = call
    if (call.id === null && isRealId(d.id)) this.setId(call, d.id)
    if (call.type === null && nonEmpty(d.callType)) call.type = d.callType
    if (nonEmpty(d.name)) this.mergeName(call, d.name)
    if (!call.hasArguments && typeof d.arguments === 'string' && d.arguments !== '') call.hasArguments = true
    return call
  }

  /**
   * The call an authoritative final names (by wire key, or by id when the wire's key was
   * unusable), created when it never streamed; fills what is unset.
   */
  final(d: FinalToolCallDelta): T {
    const known = d.key !== null ? this.byKey.get(d.key) : isRealId(d.id) ? this.byId.get(d.id) : undefined
    const call = known ?? (d.key !== null ? this.add(d.key) : this.add(this.calls.length, false))
    if (call.id === null && isRealId(d.id)) this.setId(call, d.id)
    if (call.name === null && nonEmpty(d.name)) this.setName(call, d.name)
    return call
  }

  /**
   * A new call at `index`. A call keyed by its order of arrival takes the index's slot only
   * when it is free: it must never capture the fragments of a call the wire keyed there.
   */
  private add(index: number, wireKey = true): T {
    const call = this.create(index)
    this.calls.push(call)
    if (wireKey || !this.byKey.has(index)) this.byKey.set(index, call)
    this.last = call
    return call
  }

  private setId(call: T, id: string): void {
    call.id = id
    this.byId.set(id, call)
  }

  private setName(call: T, name: string): void {
    call.name = name
    const text = new TextBuffer()
    text.append(name)
    this.names.set(call, text)
  }

  /** Which call a fragment belongs to (docs/architecture.md#tool-calls). */
  private callFor(d: ToolCallDelta): T {
    if (d.whole) {
      if (d.key !== null && this.byKey.has(d.key)) this.reused(d.key, `a whole call ${describe(d)} arrived at index ${d.key}, which already holds ${this.describeCall(this.byKey.get(d.key)!)}; kept as a second call`)
      return d.key !== null ? this.add(d.key) : this.add(this.calls.length, false)
    }
    if (d.key === null) return this.keyless(d)
    const existing = this.byKey.get(d.key)
    if (!existing) return this.add(d.key)
    // Ollama's OpenAI endpoint sends every parallel call at index 0: a new real id is a new call.
    if (isRealId(d.id) && isRealId(existing.id) && d.id !== existing.id) {
      this.reused(d.key, `call ${describe(d)} arrived at index ${d.key}, which already holds ${this.describeCall(existing)}; kept as a second call`)
      return this.add(d.key)
    }
    return existing
  }

  /**
   * Without an index, a fragment that names the id of a call continues it; otherwise only a
   * fragment that names no other call continues the open one.
   */
  private keyless(d: ToolCallDelta): T {
    const named = isRealId(d.id) ? this.byId.get(d.id) : undefined
    const open = named ?? this.last
    const otherId = isRealId(d.id) && isRealId(open?.id) && d.id !== open?.id
    const otherName = nonEmpty(d.name) && open !== null && open !== named && !this.sameName(open, d.name)
    const call = open && !otherId && !otherName ? open : this.add(this.calls.length, false)
    if (!call.keyless) {
      call.keyless = true
      this.report('missing-tool-index', `choice ${this.choice}: tool call fragment without an index; ${call === open ? `continued ${this.describeCall(call)}` : `read as a new call at position ${call.index}`}`)
    }
    return call
  }

  private reused(key: number, message: string): void {
    this.report('reused-tool-index', `choice ${this.choice}, tool call index ${key}: ${message}`)
  }

  /**
   * Names: unset → set; equal → ignore (gateways repeat it in every fragment); cumulative
   * (incoming extends it) → replace; a prefix of what we have → ignore; anything else is a
   * fragmented name and is appended, with a diagnostic so the oddity stays visible. When
   * the call already has arguments, such a name is another call at a reused index (still
   * appended: the rules split calls on a new id only).
   */
  private mergeName(call: T, name: string): void {
    const have = this.names.get(call)
    if (have === undefined) { this.setName(call, name); return }
    if (have.startsWith(name)) return
    if (have.isPrefixOf(name)) { call.name = name; have.set(name); return }
    const before = clipText(have)
    call.name = call.name! + name // concatenated, not joined: read only when asked for
    have.append(name)
    if (call.hasArguments) {
      this.reused(call.index, `a fragment names ${clip(name)} after the arguments of ${before} began; read as one call named ${clipText(have)}`)
    } else {
      this.report('tool-name-changed', `tool call ${call.index}: name fragment ${clip(name)} appended to ${before}`)
    }
  }

  /** The call's name is `name` (O(|name|), the name so far never joined). */
  private sameName(call: T, name: string): boolean {
    const have = this.names.get(call)
    return have === undefined || have.equals(name)
  }

  private describeCall(c: T): string {
    const name = this.names.get(c)
    const parts = [c.id !== null ? `id ${clip(c.id)}` : null, name !== undefined ? `name ${clipText(name)}` : null].filter((p) => p !== null)
    return parts.length > 0 ? `call ${parts.join(', ')}` : 'a call'
  }
}

function describe(d: ToolCallDelta): string {
  const parts = [isRealId(d.id) ? `id ${clip(d.id)}` : null, nonEmpty(d.name) ? `name ${clip(d.name)}` : null].filter((p) => p !== null)
  return parts.length > 0 ? `(${parts.join(', ')})` : '(no id or name)'
}

/** A wire string quoted, at most 40 characters of it (a fresh string: the text it quotes is not retained). */
function clip(s: string): string {
  return JSON.stringify(s.length > 40 ? s.slice(0, 40) + '…' : s)
}

/** clip() of text kept as parts, without joining them. */
function clipText(t: TextBuffer): string {
  return JSON.stringify(t.length > 40 ? t.head(40) + '…' : t.head(40))
}
