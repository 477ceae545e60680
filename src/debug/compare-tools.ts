// A choice's tool calls against the reference's: the list first (calls merged into one, or
// one split into several), then each call's name, id and arguments by position.

import type { ReplyToolCall } from '../library.js'
import type { ClientToolCall } from './client-shapes.js'
import { callKey, fieldRuns, frameSplitAcrossReads, sameValue, type History, type Reference } from './compare-reference.js'
import { textDifference } from './compare-text.js'
import type { Difference } from './compare-types.js'
import { frames, quote, reads, show } from './compare-words.js'

interface CallsContext {
  ref: Reference
  choice: number
  /** `choices[0].toolCalls` */
  path: string
  /** Which frame set what (computed on first use; null without frames). */
  history: () => History | null
}

export function compareToolCalls(ctx: CallsContext, expected: readonly ReplyToolCall[], got: readonly ClientToolCall[], differences: Difference[], notCompared: string[]): void {
  if (got.length !== expected.length) {
    differences.push(listDifference(ctx, expected, got))
    return
  }
  expected.forEach((_, i) => compareCall(ctx, expected, i, got[i]!, differences, notCompared))
}

function compareCall(ctx: CallsContext, expected: readonly ReplyToolCall[], i: number, have: ClientToolCall, differences: Difference[], notCompared: string[]): void {
  const want = expected[i]!
  const path = `${ctx.path}[${i}]`
  if (have.name !== undefined && (have.name ?? '') !== (want.name ?? '')) {
    differences.push(identityDifference(ctx, expected, i, 'name', have.name))
  }
  // a reference without an id had none on the wire: the client's own id is not compared
  if (want.id !== null) {
    if (have.id === undefined) notCompared.push(`${path}.id`)
    else if (have.id !== want.id) differences.push(identityDifference(ctx, expected, i, 'id', have.id))
  }
  const args = have.arguments
  if (args === undefined) notCompared.push(`${path}.arguments`)
  else if ('text' in args) {
    if (args.text !== want.arguments) {
      const runs = fieldRuns(ctx.ref, { choice: ctx.choice, channel: 'arguments', toolCall: i }, want.arguments)
      differences.push(textDifference(ctx.ref, {
        path: `${path}.arguments`, label: `arguments of tool call ${i}`, expected: want.arguments, got: args.text, runs, isArguments: true,
      }))
    }
  } else if (want.argumentsError !== null || !sameValue(args.value, want.parsedArguments)) {
    const runs = fieldRuns(ctx.ref, { choice: ctx.choice, channel: 'arguments', toolCall: i }, want.arguments)
    differences.push({
      field: `${path}.arguments`, expected: want.arguments, got: args.value, offset: null, frame: runs?.[0]?.frame ?? null,
      cause: 'tool-arguments-differ',
      message: want.argumentsError !== null
        ? `The client holds ${show(args.value)} as the arguments of tool call ${i}, but the reference's arguments are not valid JSON (${want.argumentsError}): the client repaired or guessed them.`
        : `The client holds ${show(args.value)} as the arguments of tool call ${i}; the reference's parse to ${show(want.parsedArguments)}.`,
    })
  }
}

/** A call's name or id: the frame that first gave it, and whether the client lost that frame. */
function identityDifference(ctx: CallsContext, expected: readonly ReplyToolCall[], i: number, key: 'name' | 'id', got: string | null): Difference {
  const want = expected[i]![key]
  const frame = ctx.history()?.calls.get(callKey(ctx.choice, expected, i))?.[key] ?? null
  const base = { field: `${ctx.path}[${i}].${key}`, expected: want, got, offset: null, frame }
  const split = frame !== null && (got ?? '') === '' ? frameSplitAcrossReads(ctx.ref, frame) : null
  if (split) {
    return {
      ...base, cause: 'dropped-frames',
      message: `The client has no ${key} for tool call ${i}: frame ${frame}, which gave it, arrived split across ${reads(split)}: a client that parses each read on its own drops it.`,
    }
  }
  const by = frame === null ? '' : ` (given by frame ${frame})`
  const repeated = key === 'name' && want && got && got.length > want.length && got === want.repeat(got.length / want.length)
  return {
    ...base, cause: 'other',
    message: repeated
      ? `The client appended the name of tool call ${i} from every fragment (${quote(got)}): a name repeated in each fragment is not doubled.`
      : `The client's ${key} of tool call ${i} is ${show(got)}; the reference's is ${show(want)}${by}.`,
  }
}

/** The calls as a difference shows them. */
function summary(calls: ReadonlyArray<ReplyToolCall | ClientToolCall>): Array<{ id: string | null; name: string | null; arguments: unknown }> {
  return calls.map((c) => {
    const args = c.arguments
    const shown = typeof args === 'string' ? args : args === undefined ? null : 'text' in args ? args.text : args.value
    return { id: c.id ?? null, name: c.name ?? null, arguments: shown }
  })
}

function listDifference(ctx: CallsContext, expected: readonly ReplyToolCall[], got: readonly ClientToolCall[]): Difference {
  const base = { field: ctx.path, expected: summary(expected), got: summary(got), offset: null }
  const found = got.length === 0 ? lostInSplitFrames(ctx, expected) : got.length < expected.length ? merged(ctx, expected, got) : split(ctx, expected, got)
  if (found) return { ...base, ...found }
  return {
    ...base, frame: null, cause: 'other',
    message: `The client has ${count(got.length)}; the reference has ${count(expected.length)}.`,
  }
}

function count(n: number): string {
  return n === 1 ? '1 tool call' : `${n} tool calls`
}

/** The arguments of these calls as one buffer would hold them: fragments in arrival order, and call after call. */
function joined(ctx: CallsContext, expected: readonly ReplyToolCall[], group: readonly number[]): string[] {
  const plain = group.map((i) => expected[i]!.arguments).join('')
  if (ctx.ref.merger === null) return [plain]
  let arrival = ''
  for (const p of ctx.ref.provenance) {
    if (p.choice === ctx.choice && p.channel === 'arguments' && p.toolCall !== null && group.includes(p.toolCall)) {
      arrival += expected[p.toolCall]!.arguments.slice(p.start, p.end)
    }
  }
  return [arrival, plain]
}

/** The first frame that wrote arguments of a call. */
function firstFrame(ctx: CallsContext, call: number): number | null {
  const p = ctx.ref.provenance.find((r) => r.choice === ctx.choice && r.channel === 'arguments' && r.toolCall === call)
  return p ? p.frame : null
}

type ListFinding = Pick<Difference, 'frame' | 'cause' | 'message'>

/** No call at all, and every frame that carried one (its name, its arguments) arrived split across reads. */
function lostInSplitFrames(ctx: CallsContext, expected: readonly ReplyToolCall[]): ListFinding | null {
  const carriers = new Set<number>()
  expected.forEach((call, i) => {
    const named = ctx.history()?.calls.get(callKey(ctx.choice, expected, i))?.name
    if (named !== undefined && named !== null) carriers.add(named)
    for (const r of fieldRuns(ctx.ref, { choice: ctx.choice, channel: 'arguments', toolCall: i }, call.arguments) ?? []) carriers.add(r.frame)
  })
  const seqs = [...carriers].sort((a, b) => a - b)
  if (seqs.length === 0 || !seqs.every((f) => frameSplitAcrossReads(ctx.ref, f) !== null)) return null
  return {
    frame: seqs[0]!, cause: 'dropped-frames',
    message: `The client has none of the ${count(expected.length)}: ${frames(seqs)}, which carried them, arrived split across reads, and a client that parses each read on its own drops them.`,
  }
}

function merged(ctx: CallsContext, expected: readonly ReplyToolCall[], got: readonly ClientToolCall[]): ListFinding | null {
  const positions = expected.map((_, i) => i)
  const groups: Array<{ members: number[]; how: string }> = []
  const byKey = (key: (c: ReplyToolCall) => unknown, how: (first: ReplyToolCall, members: number[]) => string) => {
    const seen = new Map<unknown, number[]>()
    positions.forEach((i) => seen.set(key(expected[i]!), [...(seen.get(key(expected[i]!)) ?? []), i]))
    for (const members of seen.values()) if (members.length > 1) groups.push({ members, how: how(expected[members[0]!]!, members) })
  }
  const all = (m: number[]) => (m.length === 2 ? 'both' : 'all')
  byKey((c) => c.index, (c, m) => `${all(m)} came at index ${c.index}, with different ids (${m.map((i) => show(expected[i]!.id)).join(', ')}), and a new id at a reused index starts a new call`)
  byKey((c) => c.name, (c, m) => `it keyed calls by name, and ${all(m)} are named ${quote(c.name ?? '')}`)
  if (expected.length > 1) groups.push({ members: positions, how: 'it appended every fragment to one call, as if every call were at index 0' })
  for (const { members, how } of groups) {
    for (const have of got) {
      const args = have.arguments
      if (args === undefined) continue
      const hit = 'text' in args
        ? joined(ctx, expected, members).includes(args.text)
        // a parsed value cannot be a concatenation: the client kept one call per key, the last replacing the others
        : have.name === expected[members[0]!]!.name && members.some((i) => sameValue(args.value, expected[i]!.parsedArguments))
      if (!hit) continue
      return {
        frame: firstFrame(ctx, members[1]!), cause: 'tool-calls-merged',
        message: `The client merged tool calls ${members.join(', ').replace(/, (\d+)$/, ' and $1')} into one: ${how}.`,
      }
    }
  }
  return null
}

function split(ctx: CallsContext, expected: readonly ReplyToolCall[], got: readonly ClientToolCall[]): ListFinding | null {
  if (got.some((c) => c.arguments === undefined || !('text' in c.arguments))) return null
  const theirs = got.map((c) => (c.arguments as { text: string }).text).join('')
  if (!joined(ctx, expected, expected.map((_, i) => i)).includes(theirs)) return null
  // the fragment the client took for a new call: the second frame writing one call's arguments
  let frame: number | null = null
  let call = -1
  for (let i = 0; i < expected.length && frame === null; i++) {
    const runs = fieldRuns(ctx.ref, { choice: ctx.choice, channel: 'arguments', toolCall: i }, expected[i]!.arguments) ?? []
    const writers = [...new Set(runs.map((r) => r.frame))]
    if (writers.length > 1) {
      frame = writers[1]!
      call = i
    }
  }
  const which = frame === null ? '' : `: ${frames([frame])} continued tool call ${call} and the client took it for a new call`
  return {
    frame, cause: 'tool-calls-split',
    message: `The client split ${count(expected.length)} into ${got.length}${which}.`,
  }
}
