// The panel's stream rules (panel/store/rules.ts) without a DOM: URL patterns, the stored form,
// the store reading a matching request with saved rules, forcing rules and back, previews.

import { describe, expect, it } from 'vitest'
import { merge, type Rules } from '../../src/index.js'
import type { CaptureEvent } from '../../panel/shell.js'
import { createPanelStore } from '../../panel/store/index.js'
import { requestEvent } from '../support/requests.js'
import { createStreamRules, defaultPattern, fromStored, PREVIEW_BYTES, previewRules, SUGGEST_LAST_FRAMES, suggestFor, toStored, urlMatches } from '../../panel/store/rules.js'

const T0 = 1_754_000_000_000
const URL_ = 'https://chat.example.com/api/stream?conversation=7'
const BODY = ['Hel', 'lo', '!'].map((t) => `data: ${JSON.stringify({ kind: 'delta', t })}\n\n`).join('') + 'data: {"kind":"end","why":"stop"}\n\n'
const rules: Rules = { version: 1, mode: 'append', text: 't', finishReason: 'why', done: { path: 'kind', equals: 'end' } }

function events(id: string, url = URL_): CaptureEvent[] {
  return [
    requestEvent({ id, url, startedAt: T0, source: 'live' }),
    { type: 'chunk', id, data: BODY, t: T0 + 5 },
    { type: 'finished', id, t: T0 + 9 },
  ]
}

/** A store whose batches run when the test ticks (as store.test.ts drives it). */
function manual(shell: Parameters<typeof createPanelStore>[0] = null) {
  const pending: Array<() => void> = []
  const store = createPanelStore(shell, { schedule: (f) => pending.push(f) })
  const tick = () => { while (pending.length) pending.shift()!() }
  return { store, tick }
}

/** A kept string, as the shells give (localStorage, storage.local). */
function memoryStore(initial: string | null = null) {
  const kept = { value: initial, saves: 0 }
  return { kept, store: { load: async () => kept.value, save: async (v: string) => { kept.value = v; kept.saves++ } } }
}

describe('URL patterns', () => {
  it('* stands for any run of characters; everything else is literal', () => {
    expect(urlMatches('https://chat.example.com/api/stream*', URL_)).toBe(true)
    expect(urlMatches('https://*.example.com/*/stream*', URL_)).toBe(true)
    expect(urlMatches('https://chat.example.com/api/stream', URL_)).toBe(false)
    expect(urlMatches('https://chat.example.com/api/stream?conversation=7', URL_)).toBe(true)
    expect(urlMatches('https://chat.example.com/api/str.am*', URL_)).toBe(false)
    expect(urlMatches('*stream*stream*', URL_)).toBe(false)
    expect(urlMatches('*', '')).toBe(true)
  })

  it('the proposed pattern is the URL without its query, and any query', () => {
    expect(defaultPattern(URL_)).toBe('https://chat.example.com/api/stream*')
    expect(defaultPattern('pasted text')).toBe('pasted text*')
  })
})

describe('stored rules', () => {
  it('are versioned JSON, read back checked: unusable entries are left out and counted', () => {
    const text = toStored([{ pattern: 'a*', rules }])
    expect(JSON.parse(text)).toEqual({ version: 1, rules: [{ pattern: 'a*', rules }] })
    expect(fromStored(text)).toEqual({ list: [{ pattern: 'a*', rules }], dropped: 0 })
    const bad = JSON.stringify({ version: 1, rules: [{ pattern: 'a*', rules }, { pattern: '', rules }, { pattern: 'b*', rules: { version: 1, mode: 'x' } }, null] })
    expect(fromStored(bad)).toEqual({ list: [{ pattern: 'a*', rules }], dropped: 3 })
    expect(fromStored('not json')).toEqual({ list: [], dropped: 1 })
    expect(fromStored('{"version":2,"rules":[]}')).toEqual({ list: [], dropped: 1 })
  })

  it('saving a pattern again replaces its rules, newest first; the shell keeps each change', async () => {
    const { kept, store } = memoryStore()
    const s = createStreamRules(store)
    await s.ready
    await s.save('a*', rules)
    await s.save('b*', { ...rules, mode: 'snapshot' })
    await s.save('a*', { ...rules, text: 'x' })
    expect(s.saved.value.map((e) => [e.pattern, e.rules.text])).toEqual([['a*', 'x'], ['b*', 't']])
    expect(kept.saves).toBe(3)
    expect(s.ruleFor('abc')).toEqual({ ...rules, text: 'x' })
    await s.remove('a*')
    expect(s.ruleFor('abc')).toBe(null)
    expect(fromStored(kept.value!).list.map((e) => e.pattern)).toEqual(['b*'])
  })

  it('a shell that refuses to save leaves the rules in force, and says so', async () => {
    const s = createStreamRules({ load: async () => null, save: async () => { throw new Error('quota exceeded') } })
    await s.save('a*', rules)
    expect(s.ruleFor('abc')).toEqual(rules)
    expect(s.status.value).toBe('The stream rules could not be saved (they apply until the panel closes): quota exceeded')
  })
})

describe('the store with rules', () => {
  it('a request whose URL matches saved rules is read with them from its first byte', async () => {
    const { store: kept } = memoryStore(toStored([{ pattern: 'https://chat.example.com/api/*', rules }]))
    const { store, tick } = manual({ kind: 'inline', rulesStore: kept })
    await store.rules.ready
    for (const e of events('r1')) store.apply(e)
    for (const e of events('r2', 'https://other.example.com/api/stream')) store.apply(e)
    tick()
    const rows = store.requests.value
    expect(rows.map((r) => [r.id, r.provider, r.forced])).toEqual([['r1', 'rules', { rules }], ['r2', 'generic', {}]])
    store.select('r1')
    tick()
    expect(store.selection.value!.reply).toEqual(merge(BODY, { rules, url: URL_, contentType: 'text/event-stream' }))
    expect(store.selection.value!.reply.choices[0]).toMatchObject({ content: 'Hello!', finishReason: 'stop' })
  })

  it('requests that arrived before the saved rules were read are read with them once they are', async () => {
    let release!: (v: string | null) => void
    const late = { load: () => new Promise<string | null>((ok) => { release = ok }), save: async () => {} }
    const { store, tick } = manual({ kind: 'devtools', rulesStore: late })
    for (const e of events('r1')) store.apply(e)
    tick()
    expect(store.requests.value.map((r) => r.provider)).toEqual(['generic'])
    release(toStored([{ pattern: 'https://chat.example.com/*', rules }]))
    await store.rules.ready
    tick()
    expect(store.requests.value.map((r) => [r.provider, r.forced])).toEqual([['rules', { rules }]])
  })

  it('forcing rules reads the request again; forcing {} gives it back to the core; the export carries the rules', () => {
    const { store, tick } = manual()
    for (const e of events('r1')) store.apply(e)
    store.select('r1')
    tick()
    expect(store.selection.value!.reply.provider).toBe('generic')
    store.apply({ type: 'force', id: 'r1', forced: { rules } })
    tick()
    expect(store.selection.value!.reply.choices[0]!.content).toBe('Hello!')
    expect(store.selection.value!.providerReason).toBe('forced')
    expect(store.recordings.get('r1')!.forced).toEqual({ rules })
    store.apply({ type: 'force', id: 'r1', forced: {} })
    tick()
    expect(store.selection.value!.reply.provider).toBe('generic')
  })

  it('the editor\'s suggestion and preview read the recording: the preview is exactly what Apply will show', () => {
    const { store, tick } = manual()
    for (const e of events('r1')) store.apply(e)
    tick()
    const source = store.recordings.get('r1')!
    const suggestion = suggestFor(source)
    // `why` is not named like a finish reason: left for the user to add
    expect(suggestion.rules).toEqual({ version: 1, mode: 'append', text: 't', done: { path: 'kind', equals: 'end' } })
    const preview = previewRules(source, JSON.stringify(suggestion.rules))
    expect(preview).toEqual({ ok: true, reply: merge(BODY, { rules: suggestion.rules!, url: URL_, contentType: 'text/event-stream' }), warnings: [], partial: false })
    // a body past the limit is previewed from its start, and says so
    const cut = previewRules(source, JSON.stringify(suggestion.rules), 40)
    expect(cut).toMatchObject({ ok: true, partial: true })
    expect(cut.ok && cut.reply.choices[0]!.content).toBe('Hel')
    expect(previewRules(source, '{"version":1,"mode":"append"}')).toEqual({ ok: false, errors: ['rules read nothing: give at least one of "text", "reasoning" or "toolCalls"'] })
  })
})

describe('suggestions from a long stream', () => {
  /** `n` text frames, then the end frame with the finish reason: the end is past the first 2,000 frames. */
  const long = (n: number, pad = '') => {
    const out: string[] = []
    for (let i = 0; i < n; i++) out.push(`data: ${JSON.stringify({ kind: 'delta', t: `w${i} ${pad}` })}\n\n`)
    return out.join('') + 'data: {"kind":"end","finish_reason":"stop"}\n\n'
  }
  const WANT: Rules = { version: 1, mode: 'append', text: 't', finishReason: 'finish_reason', done: { path: 'kind', equals: 'end' } }
  const request = (events('r1')[0] as Extract<CaptureEvent, { type: 'request' }>).request
  const recording = (body: string) => ({ request, chunks: [{ data: body, t: null }] })

  it('reads the last frames too, where the finish reason and the end marker are', () => {
    expect(suggestFor(recording(long(3000))).rules).toEqual(WANT)
  })

  it('reads the end of a body longer than the editor\'s head from the store\'s tail: whole frames, none of the head', async () => {
    const body = long(30_000, 'x'.repeat(60)) // about 2.5 MB: its end is past PREVIEW_BYTES
    const { store, tick } = manual()
    store.apply({ ...events('r1')[0]! })
    store.apply({ type: 'chunk', id: 'r1', data: body, t: T0 + 5 })
    store.apply({ type: 'finished', id: 'r1', t: T0 + 9 })
    tick()
    const bytes = new TextEncoder().encode(body)
    const head = (await store.recordings.head('r1', PREVIEW_BYTES))!
    const tail = (await store.recordings.tail('r1', SUGGEST_LAST_FRAMES, bytes.byteLength - PREVIEW_BYTES))!
    const text = new TextDecoder().decode(tail)
    // the last 100 frames exactly: it starts where a frame starts, and ends with the body
    expect(text.split('\n\n').filter((f) => f !== '').length).toBe(SUGGEST_LAST_FRAMES)
    expect(body.endsWith(text) && body.slice(0, body.length - text.length).endsWith('\n\n')).toBe(true)
    expect(head.byteLength).toBe(PREVIEW_BYTES)
    const source = { ...recording(''), chunks: [{ data: head, t: null }] }
    // the head alone ends cut in the middle of the stream: no end is seen
    expect(suggestFor(source).rules).toEqual({ version: 1, mode: 'append', text: 't' })
    expect(suggestFor(source, tail).rules).toEqual(WANT)
  })

  it('gives no more of the end than asked: whole frames within the bytes, or none', async () => {
    const { store, tick } = manual()
    for (const e of events('r1')) store.apply(e)
    tick()
    const frames = BODY.split('\n\n').filter((f) => f !== '').map((f) => `${f}\n\n`)
    const last2 = frames.slice(-2).join('')
    expect(new TextDecoder().decode((await store.recordings.tail('r1', 2, 1000))!)).toBe(last2)
    expect(new TextDecoder().decode((await store.recordings.tail('r1', 4, last2.length))!)).toBe(last2)
    expect((await store.recordings.tail('r1', 4, 5))!.byteLength).toBe(0)
    expect(await store.recordings.tail('nope', 4, 5)).toBe(null)
  })
})
