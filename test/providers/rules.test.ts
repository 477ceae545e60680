import { describe, expect, it } from 'vitest'
import { createMerger, merge, type Rules } from '../../src/index.js'
import { createRulesAdapter, RulesError } from '../../src/providers/rules.js'

/** An SSE body of these JSON frames (an event name when given as [event, json]). */
function sse(frames: Array<unknown | [string, unknown]>): string {
  return frames.map((f) => Array.isArray(f) && typeof f[0] === 'string' && f.length === 2
    ? `event: ${f[0]}\ndata: ${JSON.stringify(f[1])}\n\n`
    : `data: ${JSON.stringify(f)}\n\n`).join('')
}
const rules = (r: Partial<Rules>): Rules => ({ version: 1, mode: 'append', ...r } as Rules)

describe('rules in append mode', () => {
  it('each frame\'s text and reasoning are fragments, appended; the reply names the provider "rules"', () => {
    const reply = merge(sse([{ t: 'Hel', r: 'hm' }, { t: 'lo' }, { t: '!', stop: 'eos' }]), { rules: rules({ text: 't', reasoning: 'r', finishReason: 'stop' }) })
    expect(reply.provider).toBe('rules')
    expect(reply.choices).toEqual([{ index: 0, role: null, content: 'Hello!', reasoning: 'hm', refusal: '', toolCalls: [], finishReason: 'eos' }])
  })

  it('the provider is forced: the merger says so, and no unknown-provider warning is given', () => {
    const m = createMerger({ rules: rules({ text: 't' }) })
    m.push(sse([{ t: 'a' }, { done: true }]))
    m.end()
    expect(m.providerChoice()).toEqual({ id: 'rules', reason: 'forced' })
    expect(m.diagnostics().map((d) => d.code)).toEqual(['no-terminal-event'])
  })

  it('every match of a [*] path is appended in order, and values that are not strings add nothing', () => {
    const reply = merge(sse([{ parts: [{ text: 'a' }, { text: 7 }, { text: 'b' }] }, { parts: [{ text: null }, { text: 'c' }] }]), { rules: rules({ text: 'parts[*].text' }) })
    expect(reply.choices[0]!.content).toBe('abc')
  })

  it('done is a path that holds a value, or a path and the value it must equal; [DONE] ends the stream too', () => {
    expect(merge(sse([{ t: 'a' }, { done: false }]), { rules: rules({ text: 't', done: 'done' }) }).done).toBe(false)
    expect(merge(sse([{ t: 'a' }, { done: true }]), { rules: rules({ text: 't', done: 'done' }) }).done).toBe(true)
    expect(merge(sse([{ t: 'a', type: 'delta' }, { type: 'end' }]), { rules: rules({ text: 't', done: { path: 'type', equals: 'end' } }) }).done).toBe(true)
    expect(merge(sse([{ t: 'a', type: 'delta' }]), { rules: rules({ text: 't', done: { path: 'type', equals: 'end' } }) }).done).toBe(false)
    expect(merge(sse([{ t: 'a' }]) + 'data: [DONE]\n\n', { rules: rules({ text: 't' }) }).done).toBe(true)
  })

  it('usage is read from the frame and merged; an error there is a stream error with its message and code', () => {
    const m = createMerger({ rules: rules({ text: 't', usage: 'stats', error: 'error' }) })
    m.push(sse([{ t: 'a', stats: { in: 3 } }, { stats: { out: 5 } }, { error: { message: 'overloaded', code: 529, type: 'server' } }]))
    const reply = m.end()
    expect(reply.usage).toEqual({ in: 3, out: 5 })
    expect(m.streamErrors()).toEqual([{ frame: 2, message: 'overloaded', code: 529, type: 'server', payload: { error: { message: 'overloaded', code: 529, type: 'server' } } }])
  })

  it('only frames of the listed events are read, and the first other one is noted', () => {
    const m = createMerger({ rules: rules({ text: 'v', events: ['token'] }) })
    m.push(sse([['meta', { v: 'no' }], ['token', { v: 'a' }], { v: 'message' }, ['token', { v: 'b' }]]))
    expect(m.end().choices[0]!.content).toBe('ab')
    expect(m.diagnostics().filter((d) => d.code === 'note').map((d) => [d.frame, d.message])).toEqual([
      [0, 'frames whose event is not "token" are not read (the rules\' "events"); first: "meta"'],
    ])
  })

  it('a frame the skip condition holds for adds no text, but its finish reason and end still count', () => {
    const wire = sse([{ token: { text: 'Hi', special: false } }, { token: { text: '</s>', special: true }, details: { finish_reason: 'eos_token' }, final: 'Hi' }])
    const reply = merge(wire, { rules: rules({ text: 'token.text', skip: 'token.special', finishReason: 'details.finish_reason', done: 'final' }) })
    expect(reply.choices[0]).toMatchObject({ content: 'Hi', finishReason: 'eos_token' })
    expect(reply.done).toBe(true)
  })

  it('choices: each element is a choice, numbered by its index path or else its place; paths then start at the choice', () => {
    const wire = sse([
      { choices: [{ index: 1, delta: { content: 'B' } }, { index: 0, delta: { content: 'A' } }] },
      { choices: [{ index: 0, delta: { content: '!' }, finish_reason: 'stop' }] },
    ])
    const reply = merge(wire, { rules: rules({ choices: { each: 'choices[*]', index: 'index' }, text: 'delta.content', finishReason: 'finish_reason' }) })
    expect(reply.choices.map((c) => [c.index, c.content, c.finishReason])).toEqual([[0, 'A!', 'stop'], [1, 'B', null]])
  })

  it('tool calls: fragments keyed by their key path build each call\'s id, name and arguments; object arguments become their JSON', () => {
    const toolCalls = { each: 'calls[*]', key: 'i', id: 'id', name: 'fn', arguments: 'args' }
    const wire = sse([
      { calls: [{ i: 0, id: 'c1', fn: 'search', args: '{"q":' }] },
      { calls: [{ i: 0, args: '"x"}' }, { i: 1, id: 'c2', fn: 'now', args: { tz: 'UTC' } }] },
    ])
    const reply = merge(wire, { rules: rules({ toolCalls }) })
    expect(reply.choices[0]!.toolCalls).toEqual([
      { index: 0, id: 'c1', type: 'function', name: 'search', arguments: '{"q":"x"}', parsedArguments: { q: 'x' }, argumentsError: null },
      { index: 1, id: 'c2', type: 'function', name: 'now', arguments: '{"tz":"UTC"}', parsedArguments: { tz: 'UTC' }, argumentsError: null },
    ])
  })
})

describe('rules in snapshot mode', () => {
  it('each frame holds the whole text so far: the reply is the last snapshot and each frame is credited with what it added', () => {
    const m = createMerger({ rules: rules({ mode: 'snapshot', text: 'message.text', finishReason: 'status' }) })
    m.push(sse([{ message: { text: 'Hel' } }, { message: { text: 'Hello' } }, { message: { text: 'Hello' } }, { message: { text: 'Hello world' }, status: 'done' }]))
    const reply = m.end()
    expect(reply.choices[0]).toMatchObject({ content: 'Hello world', finishReason: 'done' })
    expect(m.provenance().map((p) => [p.frame, p.start, p.end])).toEqual([[0, 0, 3], [1, 3, 5], [3, 5, 11]])
  })

  it('a finish reason and an error repeated by every snapshot are said once', () => {
    const m = createMerger({ rules: rules({ mode: 'snapshot', text: 't', finishReason: 'f', error: 'e' }) })
    m.push(sse([{ t: 'a', f: 'stop', e: 'bad' }, { t: 'ab', f: 'stop', e: 'bad' }]))
    m.end()
    expect(m.diagnostics().some((d) => d.code === 'duplicate-finish')).toBe(false)
    expect(m.streamErrors().map((e) => [e.frame, e.message])).toEqual([[0, 'bad']])
  })

  it('tool-call arguments are snapshots too: each frame adds what is new, keyed by place when there is no key', () => {
    const toolCalls = { each: 'calls[*]', name: 'name', arguments: 'args' }
    const wire = sse([{ calls: [{ name: 'f', args: '{"a"' }] }, { calls: [{ name: 'f', args: '{"a":1}' }, { name: 'g', args: '{}' }] }])
    const reply = merge(wire, { rules: rules({ mode: 'snapshot', toolCalls }) })
    expect(reply.choices[0]!.toolCalls.map((c) => [c.index, c.name, c.arguments])).toEqual([[0, 'f', '{"a":1}'], [1, 'g', '{}']])
  })

  it('a snapshot that does not extend the previous one is cut back to what they share, and said (snapshot-rewrote)', () => {
    const m = createMerger({ rules: rules({ mode: 'snapshot', text: 't' }) })
    m.push(sse([{ t: 'Hello wrld' }, { t: 'Hello world' }]))
    expect(m.end().choices[0]!.content).toBe('Hello world')
    expect(m.diagnostics().filter((d) => d.code === 'snapshot-rewrote').map((d) => [d.frame, d.level])).toEqual([[1, 'warning']])
    expect(m.provenance().map((p) => [p.frame, p.start, p.end])).toEqual([[0, 0, 7], [1, 7, 11]])
  })

  it('a 10 MB snapshot is read, not thrown on', () => {
    const big = 'x'.repeat(10_000_000)
    const reply = merge(sse([{ t: 'x' }, { t: big }]), { rules: rules({ mode: 'snapshot', text: 't' }) })
    expect(reply.choices[0]!.content.length).toBe(10_000_000)
  })
})

// Shapes from LangServe's /stream_log (langchain-ai/langchain, tests of astream_log: RunLogPatch
// lists such as `{"op": "add", "path": "/streamed_output/-", "value": "foo"}` after a `replace`
// of the whole document), sent as `event: data` frames holding `{"ops": [...]}`.
describe('rules in patch mode', () => {
  const initial = { op: 'replace', path: '', value: { id: 'run', streamed_output: [], final_output: null, logs: {} } }
  const streamLog = rules({ mode: 'patch', operations: 'ops', events: ['data'], text: 'streamed_output[*]' })

  it('operations change one document and the paths read it: each frame is credited with the text it added', () => {
    const m = createMerger({ rules: streamLog })
    m.push(sse([
      ['data', { ops: [initial] }],
      ['data', { ops: [{ op: 'add', path: '/streamed_output/-', value: 'Hel' }, { op: 'replace', path: '/final_output', value: 'Hel' }] }],
      ['data', { ops: [{ op: 'add', path: '/streamed_output/-', value: 'lo' }, { op: 'replace', path: '/final_output', value: 'Hello' }] }],
    ]))
    expect(m.end().choices[0]!.content).toBe('Hello')
    expect(m.provenance().map((p) => [p.frame, p.start, p.end])).toEqual([[1, 0, 3], [2, 3, 5]])
  })

  it('the append and truncate variants write the text; a truncate takes characters back', () => {
    const r = rules({ mode: 'patch', text: 'message.content.parts[0]' })
    const reply = merge(sse([
      { op: 'add', path: '/message', value: { content: { parts: ['Hi'] } } },
      { op: 'append', path: '/message/content/parts/0', value: ' there!!' },
      [{ op: 'truncate', path: '/message/content/parts/0', value: 8 }, { op: 'append', path: '/message/content/parts/0', value: '.' }],
    ]), { rules: r })
    expect(reply.choices[0]!.content).toBe('Hi there.')
  })

  it('appends to the text\'s place are credited to their frames; an operation that replaces a parent makes the text read whole', () => {
    const m = createMerger({ rules: rules({ mode: 'patch', text: 'message.parts[0]', finishReason: 'message.status' }) })
    m.push(sse([
      { op: 'add', path: '/message', value: { parts: ['A'], status: null } },
      { op: 'append', path: '/message/parts/0', value: 'b' },
      [{ op: 'append', path: '/message/parts/0', value: 'c' }, { op: 'append', path: '/message/parts/0', value: 'd' }],
      { op: 'replace', path: '/message', value: { parts: ['Abcd!'], status: 'done' } },
    ]))
    const reply = m.end()
    expect(reply.choices[0]).toMatchObject({ content: 'Abcd!', finishReason: 'done' })
    expect(m.provenance().map((p) => [p.frame, p.start, p.end])).toEqual([[0, 0, 1], [1, 1, 2], [2, 2, 3], [2, 3, 4], [3, 4, 5]])
    expect(m.diagnostics().filter((d) => d.level !== 'info').map((d) => d.code)).toEqual(['no-terminal-event'])
  })

  it('a replace that shortens the text cuts it back, without a snapshot-rewrote warning: the operation said so', () => {
    const m = createMerger({ rules: rules({ mode: 'patch', text: 'a' }) })
    m.push(sse([{ op: 'add', path: '/a', value: 'Hello wrld' }, { op: 'replace', path: '/a', value: 'Hello world' }]))
    expect(m.end().choices[0]!.content).toBe('Hello world')
    expect(m.diagnostics().map((d) => d.code)).toEqual(['no-terminal-event'])
  })

  it('skip is refused in patch mode: a frame\'s operations are never half applied', () => {
    expect(() => createRulesAdapter({ version: 1, mode: 'patch', text: 'a', skip: 'x' })).toThrow('bad rules: skip: only append and snapshot modes skip frames')
  })

  it('hostile operations (__proto__, ~ escapes, out-of-range indexes, not objects) are warnings on their frame; the document stays as it was', () => {
    const m = createMerger({ rules: rules({ mode: 'patch', text: 'a' }) })
    m.push(sse([
      { op: 'add', path: '/a', value: 'ok' },
      { op: 'add', path: '/__proto__/x', value: 'bad' },
      { op: 'add', path: '/~2', value: 'bad' },
      { op: 'add', path: '/list/5', value: 'bad' },
      [7, null, 'op'],
      { op: 'replace', path: '/a', value: 'ok!' },
    ]))
    expect(m.end().choices[0]!.content).toBe('ok!')
    expect(({}) as Record<string, unknown>).not.toHaveProperty('x')
    expect(m.diagnostics().filter((d) => d.level === 'warning' && d.code === 'note').map((d) => d.frame)).toEqual([1, 2, 3, 4, 4, 4])
  })
})

describe('bad rules and hostile frames', () => {
  it('createRulesAdapter and merge refuse bad rules with every problem named', () => {
    expect(() => createRulesAdapter({ version: 1, mode: 'append' })).toThrow(new RulesError(['rules read nothing: give at least one of "text", "reasoning" or "toolCalls"']))
    expect(() => merge('data: {}\n\n', { rules: { version: 1, mode: 'x', text: 'a' } as unknown as Rules })).toThrow('bad rules: mode: one of "append", "snapshot", "patch", got "x"')
  })

  it('frames that are not objects, and paths through __proto__, add nothing and throw nothing', () => {
    const wire = 'data: 7\n\ndata: "text"\n\ndata: null\n\ndata: [1]\n\ndata: {"__proto__": {"t": "own"}}\n\n'
    const reply = merge(wire, { rules: rules({ text: '__proto__.t', choices: { each: 'x[*]' }, toolCalls: { each: '__proto__', name: 'constructor' } }) })
    expect(reply.choices).toEqual([])
    expect(merge(wire, { rules: rules({ text: '__proto__.t' }) }).choices[0]!.content).toBe('own')
  })
})
