// diagnose(): every diagnostic named after its bug, at the right frame, from real wire text;
// the full list of (code, level, frame) asserted exactly each time. Every repository fixture:
// the exact list its .expected.json gives (a clean stream has none), also when cut into timed reads.

import { describe, expect, it } from 'vitest'
import { diagnose, diagnoseMerger } from '../../src/debug/diagnose.js'
import { createMerger, SYMPTOMS, type Diagnostic } from '../../src/index.js'
import { LineEndings } from '../../src/debug/line-endings.js'
import { fixtureRecording, loadFixtures } from '../support/fixtures.js'
import { recording } from '../support/requests.js'
import { openaiChunk } from '../support/streams.js'

const encoder = new TextEncoder()

/** The body as one read of unknown time. */
const whole = (body: string | Uint8Array, request?: Parameters<typeof recording>[1]) => recording([[body, null]], request)

const found = (ds: Diagnostic[]) => ds.map((d) => [d.code, d.level, d.frame])

/** An OpenAI chat chunk without an id: the messages below quote its text and character offsets. */
const chunk = (delta: object, finish: string | null = null) => openaiChunk(delta, finish, { id: null })

const role = chunk({ role: 'assistant', content: '' })
const hel = chunk({ content: 'Hel' })
const lo = chunk({ content: 'lo' })
const stop = chunk({}, 'stop')
const done = 'data: [DONE]\n\n'
const clean = role + hel + lo + stop + done

describe('diagnose: a clean stream', () => {
  it('has nothing to say, whole or in timed reads', () => {
    expect(diagnose(whole(clean))).toEqual([])
    expect(diagnose(recording([[role + hel, 300], [lo, 350], [stop + done, 400]]))).toEqual([])
  })
})

describe('diagnose: frames', () => {
  it('glued-frames: two frames without the blank line between them are one broken frame', () => {
    const glued = hel.slice(0, -1) + lo
    const ds = diagnose(whole(role + glued + stop + done))
    // both halves lost: nothing is left of the reply
    expect(found(ds)).toEqual([['empty-reply', 'warning', null], ['glued-frames', 'error', 1]])
  })

  it('glued-frames: exactly it when the reply still has text, with the frame, line, offsets, excerpt and symptom', () => {
    const first = chunk({ role: 'assistant', content: 'Hi' })
    const ds = diagnose(whole(first + hel.slice(0, -1) + lo + stop + done))
    const at = hel.length - 'data: '.length - 2 + 1 // the second value starts after the first one and its line break
    expect(ds).toEqual([{
      code: 'glued-frames', level: 'error', frame: 1, line: 3, offset: first.length, byteOffset: first.length,
      message: `frame 1 holds 2 JSON values, the second from character ${at} of its data (…${JSON.stringify(('{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":null}]}').slice(at - 30, at + 30))}…): the blank line between two frames was lost`,
      symptom: SYMPTOMS['glued-frames'],
    }])
  })

  it('glued-frames: counts every value, `data:` fields glued on one line included', () => {
    const first = chunk({ role: 'assistant', content: 'Hi' })
    const three = hel.trimEnd() + lo.trimEnd() + ' ' + stop
    const ds = diagnose(whole(first + three + done))
    expect(found(ds)).toEqual([['glued-frames', 'error', 1]])
    expect(ds[0]!.message).toMatch(/^frame 1 holds 3 JSON values, /)
  })

  it('glued-frames: NDJSON lines without the line break between them', () => {
    const line = (o: object) => JSON.stringify(o)
    const a = line({ model: 'm', created_at: 't', message: { role: 'assistant', content: 'Hi' }, done: false })
    const b = line({ model: 'm', created_at: 't', message: { role: 'assistant', content: ' there' }, done: false })
    const c = line({ model: 'm', created_at: 't', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' })
    const ds = diagnose(whole(`${a}\n${b}${b}\n${c}\n`, { url: 'http://127.0.0.1:11434/api/chat', contentType: 'application/x-ndjson' }))
    expect(found(ds)).toEqual([['glued-frames', 'error', 1]])
    expect(ds[0]!.message).toMatch(/the line break between two lines was lost$/)
  })

  it('a broken frame that is not two values is not glued', () => {
    const first = chunk({ role: 'assistant', content: 'Hi' })
    expect(found(diagnose(whole(first + 'data: {"choices":[{"index":0,"delta":{"content":"B"}\n\n' + stop + done)))).toEqual([])
  })

  it('missing-data-prefix: a payload block without `data:` (the SSE reader keeps it as a field-only block), instead of unknown-field', () => {
    const lost = hel.replace(/^data: /, '')
    const ds = diagnose(whole(role + lost + lo + stop + done))
    expect(ds).toEqual([{
      code: 'missing-data-prefix', level: 'warning', frame: 1, line: 3, offset: role.length,
      message: `line 3 carries a payload without a \`data:\` field (${JSON.stringify(lost.trimEnd().slice(0, 30))}…): SSE readers ignore it`,
      symptom: SYMPTOMS['missing-data-prefix'],
    }])
  })

  it('missing-data-prefix: a payload line inside a frame, and [DONE] without its field', () => {
    const ds = diagnose(whole(role + hel.trimEnd() + '\n' + lo.replace(/^data: /, '') + stop + '[DONE]\n\n'))
    expect(found(ds)).toEqual([
      ['no-terminal-event', 'warning', null],
      ['missing-data-prefix', 'warning', 1],
      ['missing-data-prefix', 'warning', 2],
    ])
    expect(ds.map((d) => d.line)).toEqual([undefined, 4, 8])
  })

  it('missing-data-prefix on every frame (an NDJSON body read as SSE): 100 listed, the rest counted', () => {
    let body = ''
    for (let i = 0; i < 130; i++) body += chunk({ content: 'x' }).trimEnd() + '\n' + chunk({ content: 'y' }).replace(/^data: /, '')
    const ds = diagnose(whole(body + stop + done))
    const prefix = ds.filter((d) => d.code === 'missing-data-prefix')
    expect(prefix).toHaveLength(101)
    expect(prefix.slice(0, 100).map((d) => d.frame)).toEqual(Array.from({ length: 100 }, (_, i) => i))
    expect(prefix[100]).toEqual({
      code: 'missing-data-prefix', level: 'warning', frame: 100, symptom: SYMPTOMS['missing-data-prefix'],
      message: '30 more missing-data-prefix not listed (130 in all), the first of them at frame 100',
    })
    // the unknown-field lines it explains are gone; the reader's count of the unlisted ones stays
    expect(ds.filter((d) => d.code === 'unknown-field').map((d) => d.line)).toEqual([undefined])
  })

  it('data-after-done: a usage chunk after [DONE] (the accumulator) and a broken frame after it (only the frames say)', () => {
    const usage = `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [], usage: { total_tokens: 9 } })}\n\n`
    const a = diagnose(whole(clean + usage))
    expect(found(a)).toEqual([['data-after-done', 'warning', 5]])
    expect(a[0]!.message).toBe('frame 5 carries usage after the terminal marker of frame 4')
    const b = diagnose(whole(clean + 'data: {"choices":[\n\n'))
    expect(found(b)).toEqual([['data-after-done', 'warning', 5]])
    expect(b[0]!.message).toBe('frame 5 (broken) comes after the [DONE] of frame 4')
  })

  it("data-after-done: text after the provider's own terminal event (Anthropic message_stop)", () => {
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
    const body = ev('message_start', { message: { role: 'assistant', content: [] } })
      + ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })
      + ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } })
      + ev('message_delta', { delta: { stop_reason: 'end_turn' } })
      + ev('message_stop', {})
      + ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ' again' } })
    expect(found(diagnose(whole(body, { url: 'https://api.anthropic.com/v1/messages' })))).toEqual([
      ['data-after-done', 'warning', 5],
      ['content-after-finish', 'warning', 5],
    ])
  })

  it('content-after-finish: text for a choice after its finish reason, once', () => {
    const ds = diagnose(whole(role + hel + stop + lo + chunk({ content: '!' }) + done))
    expect(ds).toEqual([{
      code: 'content-after-finish', level: 'warning', frame: 3, message: 'choice 0 gets more after its finish reason "stop"', symptom: SYMPTOMS['content-after-finish'],
    }])
  })

  it('duplicate-finish: a second finish chunk (OpenRouter, Groq)', () => {
    expect(found(diagnose(whole(role + hel + lo + stop + stop + done)))).toEqual([['duplicate-finish', 'info', 4]])
  })

  it('inline-think-tags: <think>…</think> inside the content, at the frame where it starts', () => {
    const body = role + chunk({ content: 'Sure. ' }) + chunk({ content: '<th' }) + chunk({ content: 'ink>\nThe user greets' }) + chunk({ content: '.</think>\n\nHi!' }) + stop + done
    const ds = diagnose(whole(body))
    expect(ds).toEqual([{
      code: 'inline-think-tags', level: 'warning', frame: 2, symptom: SYMPTOMS['inline-think-tags'],
      message: 'choice 0: the content holds `<think>`…`</think>` from character 6 to 38: reasoning the server did not move to a reasoning field',
    }])
  })

  it('inline-think-tags: only `</think>` (the opening tag was in the prompt): where the content starts', () => {
    const ds = diagnose(whole(role + chunk({ content: 'The user greets.' }) + chunk({ content: '</think>\n\nHi!' }) + stop + done))
    expect(found(ds)).toEqual([['inline-think-tags', 'warning', 1]])
  })

  it('reused-tool-index: a second call at index 0 (Ollama\'s OpenAI endpoint)', () => {
    const call = (id: string, path: string) => chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path }) } }] })
    const ds = diagnose(whole(role + call('call_a', 'a') + call('call_b', 'b') + chunk({}, 'tool_calls') + done))
    expect(found(ds)).toEqual([['reused-tool-index', 'warning', 2]])
  })

  it('missing-tool-index: calls without an index, one diagnostic per call at its first frame', () => {
    const call = (d: object) => chunk({ tool_calls: [d] })
    const ds = diagnose(whole(role
      + call({ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":' } })
      + call({ function: { arguments: '1}' } })
      + call({ id: 't2', type: 'function', function: { name: 'g', arguments: '{}' } })
      + chunk({}, 'tool_calls') + done))
    expect(found(ds)).toEqual([['missing-tool-index', 'warning', 1], ['missing-tool-index', 'warning', 3]])
  })

  it('truncated-by-limit: finish reason length', () => {
    const ds = diagnose(whole(role + hel + chunk({}, 'length') + done))
    expect(ds).toEqual([{
      code: 'truncated-by-limit', level: 'warning', frame: 2, message: 'choice 0 stopped at the token limit (finish reason "length")', symptom: SYMPTOMS['truncated-by-limit'],
    }])
  })

  describe('arguments-invalid: a call whose arguments do not parse once the stream has ended', () => {
    const call = (d: Record<string, unknown>) => chunk({ tool_calls: [{ index: 0, ...d }] })
    const open = call({ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } })
    const frag1 = call({ function: { arguments: '{"city":' } })
    const frag2 = call({ function: { arguments: '"Par' } })

    it('an error when the finish reason says the calls are complete: the call, the parser\'s message and position, the frame of its last fragment', () => {
      const ds = diagnose(whole(role + open + frag1 + frag2 + chunk({}, 'tool_calls') + done))
      expect(ds).toEqual([{
        code: 'arguments-invalid', level: 'error', frame: 3, symptom: SYMPTOMS['arguments-invalid'],
        message: 'tool call 0 ("get_weather", id "call_1") of choice 0: its arguments (12 characters, the last fragment in frame 3) do not parse: Unexpected end of JSON input at position 12 (expected the rest of the value); yet finish reason "tool_calls" says the calls are complete',
      }])
    })

    it('a warning beside truncated-by-limit when the token limit cut them', () => {
      const ds = diagnose(whole(role + open + frag1 + frag2 + chunk({}, 'length') + done))
      expect(found(ds)).toEqual([['arguments-invalid', 'warning', 3], ['truncated-by-limit', 'warning', 4]])
      expect(ds[0]!.message).toBe('tool call 0 ("get_weather", id "call_1") of choice 0: its arguments (12 characters, the last fragment in frame 3) do not parse: Unexpected end of JSON input at position 12 (expected the rest of the value); cut at the token limit (finish reason "length")')
    })

    it('a warning when the stream ended with no finish reason (cut), beside no-terminal-event', () => {
      const ds = diagnose(whole(role + open + frag1 + frag2))
      expect(found(ds)).toEqual([['no-terminal-event', 'warning', null], ['arguments-invalid', 'warning', 3]])
      expect(ds[1]!.message).toMatch(/; the choice has no finish reason$/)
    })

    it('arguments that never came: the frame that opened the call', () => {
      const ds = diagnose(whole(role + open + chunk({}, 'tool_calls') + done))
      expect(ds.map((d) => [d.level, d.frame, d.message])).toEqual([['error', 1,
        'tool call 0 ("get_weather", id "call_1") of choice 0: its arguments (0 characters, no fragment came; the call opened in frame 1) do not parse: Unexpected end of JSON input at position 0 (expected a value); yet finish reason "tool_calls" says the calls are complete']])
    })

    it('not while the stream runs: partial arguments are what a streaming call looks like', () => {
      const m = createMerger({ url: 'https://api.openai.com/v1/chat/completions' })
      m.push(role + open + frag1 + frag2)
      expect(diagnoseMerger(m, null, { live: true })).toEqual([])
    })

    it('not for arguments that are valid JSON nested deeper than the Reply keeps, nor for free text (a Responses custom tool, ChatGPT web\'s message to a tool)', () => {
      const deep = '['.repeat(300) + ']'.repeat(300)
      expect(found(diagnose(whole(role + open + call({ function: { arguments: deep } }) + chunk({}, 'tool_calls') + done)))).toEqual([])
      const custom = loadFixtures().filter((f) => f.name === 'openai-responses/reasoning-text-custom-tool-call.sse' || f.name === 'chatgpt-web/bio-tool-calls-then-answer.sse')
      expect(custom.map((f) => {
        const m = createMerger(f.options)
        m.push(f.wire)
        const reply = m.end()
        return [f.name, reply.choices[0]!.toolCalls.filter((t) => t.argumentsError !== null).length, m.diagnostics().filter((d) => d.code === 'arguments-invalid').length]
      })).toEqual([['chatgpt-web/bio-tool-calls-then-answer.sse', 3, 0], ['openai-responses/reasoning-text-custom-tool-call.sse', 1, 0]])
    })
  })

  it('provider-error: an error payload inside the stream (OpenRouter)', () => {
    const error = `data: ${JSON.stringify({ error: { code: 502, message: 'Provider disconnected' }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] })}\n\n`
    const ds = diagnose(whole(role + hel + error + done))
    expect(ds).toEqual([{
      code: 'provider-error', level: 'error', frame: 2, message: 'the provider sent an error (code 502): "Provider disconnected"', symptom: SYMPTOMS['provider-error'],
    }])
  })

  it('empty-reply: no content, reasoning, refusal or tool call', () => {
    const ds = diagnose(whole(role + stop + done))
    expect(ds).toEqual([{
      code: 'empty-reply', level: 'warning', frame: null, message: 'no content, reasoning, refusal or tool call in 3 frames (finish reason "stop")', symptom: SYMPTOMS['empty-reply'],
    }])
    // a live stream is not empty yet
    const m = createMerger({ url: 'https://api.openai.com/v1/chat/completions' })
    m.push(role)
    expect(diagnoseMerger(m, null, { live: true })).toEqual([])
  })
})

describe('diagnose: the body and its reads', () => {
  it('mixed-line-endings: CRLF frames, then one with LF, at the frame where the second kind starts', () => {
    const crlf = (s: string) => s.replace(/\n/g, '\r\n')
    const ds = diagnose(recording([[crlf(role + hel), null], [lo, null], [crlf(stop + done), null]]))
    expect(found(ds.filter((d) => d.code === 'mixed-line-endings'))).toEqual([['mixed-line-endings', 'info', 2]])
    const byte = crlf(role + hel).length + lo.length - 2
    expect(ds.find((d) => d.code === 'mixed-line-endings')).toEqual({
      code: 'mixed-line-endings', level: 'info', frame: 2, byteOffset: byte,
      message: `line endings of 2 kinds: 8 CRLF, 2 LF; the first LF at byte ${byte}`, symptom: SYMPTOMS['mixed-line-endings'],
    })
    // a CR at the end of one read and its LF at the start of the next are one CRLF
    const body = crlf(clean)
    const cut = body.indexOf('\n')
    expect(diagnose(recording([[body.slice(0, cut), null], [body.slice(cut), null]])).filter((d) => d.code === 'mixed-line-endings')).toEqual([])
    expect(found(diagnose(whole(body)))).toEqual([])
  })

  it('mixed-line-endings: a lone CR among LFs', () => {
    const ds = diagnose(whole(role + hel + lo.replace('\n\n', '\r\r') + stop + done))
    expect(found(ds)).toEqual([['mixed-line-endings', 'info', 2]])
  })

  it('bom: EF BB BF at the start, as bytes or as text', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(clean)])
    expect(diagnose(whole(bytes))).toEqual([{
      code: 'bom', level: 'info', frame: null, byteOffset: 0, offset: 0, symptom: SYMPTOMS.bom,
      message: 'the body starts with a UTF-8 byte order mark (EF BB BF); readers drop it, but only when they look for it',
    }])
    expect(found(diagnose(recording([[bytes.slice(0, 1), null], [bytes.slice(1), null]])).filter((d) => d.code === 'bom'))).toEqual([['bom', 'info', null]])
    expect(found(diagnose(whole('\ufeff' + clean)))).toEqual([['bom', 'info', null]])
  })

  it('frame-split-across-reads: each frame that straddles a read boundary', () => {
    const body = role + hel + lo + stop + done
    const cut1 = role.length + 10 // inside frame 1
    const cut2 = role.length + hel.length // between frames 1 and 2
    const cut3 = body.length - 3 // inside [DONE]
    const ds = diagnose(recording([[body.slice(0, cut1), 100], [body.slice(cut1, cut2), 110], [body.slice(cut2, cut3), 120], [body.slice(cut3), 130]]))
    expect(found(ds)).toEqual([['frame-split-across-reads', 'info', 1], ['frame-split-across-reads', 'info', 4]])
    expect(ds[0]).toEqual({
      code: 'frame-split-across-reads', level: 'info', frame: 1, byteOffset: cut1, symptom: SYMPTOMS['frame-split-across-reads'],
      message: `frame 1 (bytes ${role.length}–${role.length + hel.length - 1}) arrived in 2 reads (1 to 2 of 4)`,
    })
  })

  it('slices of a file are not network reads: no frame or character is split across them, while line endings and the BOM are still read from the bytes', () => {
    const crlf = (s: string) => s.replace(/\n/g, '\r\n')
    const body = encoder.encode('\ufeff' + crlf(role) + chunk({ content: 'Café' }) + stop + done)
    const cuts = [10, body.indexOf(0xc3) + 1, body.length - 3]
    const reads = [0, ...cuts].map((at, i): [Uint8Array, null] => [body.slice(at, cuts[i] ?? body.length), null])
    const m = createMerger({ url: 'https://api.openai.com/v1/chat/completions', contentType: 'text/event-stream' })
    for (const [data] of reads) m.push(data)
    m.end()
    const chunks = reads.map(([data]) => ({ data, t: null }))
    expect(found(diagnoseMerger(m, chunks, { networkReads: false }))).toEqual([['bom', 'info', null], ['mixed-line-endings', 'info', 1]])
    expect(found(diagnoseMerger(m, chunks))).toEqual([
      ['bom', 'info', null], ['frame-split-across-reads', 'info', 0], ['mixed-line-endings', 'info', 1], ['frame-split-across-reads', 'info', 1],
      ['utf8-split-across-reads', 'info', 1], ['frame-split-across-reads', 'info', 3],
    ])
  })

  it('line endings kept as the body arrived (the panel store\'s): a body of one kind is not read again; a mixed one is counted over its reads', () => {
    const crlf = (s: string) => s.replace(/\n/g, '\r\n')
    const body = crlf(role + hel) + lo + crlf(stop + done)
    const m = createMerger({ url: 'https://api.openai.com/v1/chat/completions', contentType: 'text/event-stream' })
    m.push(body)
    m.end()
    const chunks = [{ data: body, t: null }]
    const oneKind = new LineEndings()
    oneKind.add(clean)
    expect(diagnoseMerger(m, chunks, { lineEndings: oneKind }).filter((d) => d.code === 'mixed-line-endings')).toEqual([])
    const seen = new LineEndings()
    for (const piece of [crlf(role + hel).slice(0, -1), crlf(role + hel).slice(-1), lo, encoder.encode(crlf(stop + done))]) seen.add(piece)
    const byte = crlf(role + hel).length + lo.length - 2
    expect(seen.first).toEqual({ CRLF: role.length - 2, LF: byte, CR: -1 })
    expect(seen.kinds()).toEqual(['CRLF', 'LF'])
    expect(diagnoseMerger(m, chunks, { lineEndings: seen }).find((d) => d.code === 'mixed-line-endings')?.message)
      .toBe(`line endings of 2 kinds: 8 CRLF, 2 LF; the first LF at byte ${byte}`)
  })

  it('a CR that ends the body is a line ending of its own (CR), kept as the body arrived', () => {
    const seen = new LineEndings()
    seen.add('data: {}\n\n')
    seen.add(encoder.encode('data: {}\r'))
    expect(seen.kinds()).toEqual(['LF', 'CR'])
    expect(seen.first).toEqual({ LF: 8, CRLF: -1, CR: -1 })
  })

  it('utf8-split-across-reads: the frame holding a character cut between two reads', () => {
    const body = encoder.encode(role + chunk({ content: 'Café' }) + stop + done)
    const at = encoder.encode(role + chunk({ content: 'Caf' })).length - 'data: '.length // a point inside é… found below
    const e = body.indexOf(0xc3, at - 40)
    const ds = diagnose(recording([[body.slice(0, e + 1), 100], [body.slice(e + 1), 120]]))
    expect(found(ds)).toEqual([['frame-split-across-reads', 'info', 1], ['utf8-split-across-reads', 'info', 1]])
    expect(ds[1]).toEqual({
      code: 'utf8-split-across-reads', level: 'info', frame: 1, byteOffset: e + 1, symptom: SYMPTOMS['utf8-split-across-reads'],
      message: `a character in frame 1 split across reads, the first between reads 1 and 2 at byte ${e + 1}`,
    })
  })

  it('utf8-split-across-reads: a surrogate pair split between two text reads', () => {
    const text = role + chunk({ content: 'ok 😀' }) + stop + done
    const cut = text.indexOf('😀') + 1
    const ds = diagnose(recording([[text.slice(0, cut), 100], [text.slice(cut), 120]]))
    expect(found(ds)).toEqual([['frame-split-across-reads', 'info', 1], ['utf8-split-across-reads', 'info', 1]])
  })

  it('every frame split: the first 100 listed, the rest in one summary', () => {
    let body = role
    for (let i = 0; i < 150; i++) body += chunk({ content: 'x' })
    body += stop + done
    const reads = Array.from({ length: Math.ceil(body.length / 7) }, (_, i): [string, number] => [body.slice(i * 7, i * 7 + 7), 10 + i])
    const ds = diagnose(recording(reads))
    expect(ds.filter((d) => d.code === 'frame-split-across-reads')).toHaveLength(101)
    expect(ds.at(-1)).toEqual({
      code: 'frame-split-across-reads', level: 'info', frame: 100, symptom: SYMPTOMS['frame-split-across-reads'],
      message: '53 more frame-split-across-reads not listed (153 in all), the first of them at frame 100',
    })
  })
})

describe('diagnose: times', () => {
  const timed = (gap: number) => recording([[role, 200], [hel, 240], [lo, 240 + gap], [stop + done, 300 + gap]])

  it('stall: a gap of 1000 ms or more before a frame, at the frame after it', () => {
    const ds = diagnose(timed(1500))
    expect(ds).toEqual([{
      code: 'stall', level: 'info', frame: 2, message: '1.5 s without a frame between frame 1 and frame 2', symptom: SYMPTOMS.stall,
    }])
    expect(diagnose(timed(999))).toEqual([])
    expect(diagnose(timed(1000)).map((d) => d.code)).toEqual(['stall'])
    // configurable
    expect(found(diagnose(timed(1500), { stallMs: 2000 }))).toEqual([])
    expect(found(diagnose(timed(400), { stallMs: 400 }))).toEqual([['stall', 'info', 2]])
  })

  it('burst: 20 frames or more within 50 ms after a first byte later than 500 ms', () => {
    const frames = (n: number) => role + Array.from({ length: n - 3 }, () => chunk({ content: 'x' })).join('') + stop + done
    const body = frames(20)
    const cut = role.length + chunk({ content: 'x' }).length // two frames in the first read
    const ds = diagnose(recording([[body.slice(0, cut), 800], [body.slice(cut), 850]]))
    expect(ds).toEqual([{
      code: 'burst', level: 'warning', frame: null, symptom: SYMPTOMS.burst,
      message: 'all 20 frames arrived within 50 ms, 800 ms after the request started: the stream was buffered (a proxy, compression or the server)',
    }])
    // not when the first byte came early, the frames were spread, or there are fewer
    expect(diagnose(recording([[body, 500]]))).toEqual([])
    expect(diagnose(recording([[body.slice(0, cut), 800], [body.slice(cut), 851]]))).toEqual([])
    expect(diagnose(recording([[frames(19), 900]]))).toEqual([])
    // no times, no burst
    expect(diagnose(whole(body))).toEqual([])
  })
})

describe('diagnose: the repository fixtures', () => {
  // Each fixture's .expected.json lists what diagnose() says about it (`diagnostics`, [] when clean).
  const fixtures = loadFixtures()
  const asRecording = (f: (typeof fixtures)[number], reads: Array<[Uint8Array, number | null]>) => fixtureRecording(f.options, reads)

  for (const f of fixtures) {
    const expected = f.diagnostics.map((d) => [d.code, d.level, d.frame])
    it(`${f.name}: ${expected.length ? 'exactly what is wrong with it' : 'clean: nothing'}`, () => {
      expect(found(diagnose(asRecording(f, [[f.wire, null]])))).toEqual(expected)
    })
    it(`${f.name}: cut into timed reads of 7 bytes, the same warnings and errors`, () => {
      const reads: Array<[Uint8Array, number]> = []
      for (let at = 0; at < f.wire.length; at += 7) reads.push([f.wire.slice(at, at + 7), 100 + at])
      const ds = diagnose(asRecording(f, reads))
      expect(found(ds.filter((d) => d.level !== 'info'))).toEqual(expected.filter(([, level]) => level !== 'info'))
    })
  }
})
