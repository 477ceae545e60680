import { describe, expect, it } from 'vitest'
import {
  LIST_LIMIT, clip, clipStart, frameJson, frameSummary, renderFrameRow, renderFramesHeader, renderReply,
  renderSummary, renderUsage, safeLine, safeText, type ReplyView,
} from '../../src/cli/render.js'
import { ANSI, PLAIN, wantsColor } from '../../src/cli/style.js'
import type { Frame, Reply, ReplyChoice } from '../../src/index.js'

const lines = (...l: string[]) => l.join('\n') + '\n'

function choice(over: Partial<ReplyChoice>): ReplyChoice {
  return { index: 0, role: null, content: '', reasoning: '', refusal: '', toolCalls: [], finishReason: null, ...over }
}

function reply(over: Partial<Reply>): Reply {
  return { transport: 'sse', provider: 'openai-chat', done: true, frameCount: 1, choices: [], messages: [], usage: null, errors: [], ...over }
}

function frame(over: Partial<Frame>): Frame {
  return {
    seq: 0, kind: 'data', raw: '', start: 0, end: 0, byteStart: 0, byteEnd: 0, line: 1, event: null, id: null,
    retry: null, data: '', time: null, unterminated: false, ...over,
  }
}

const clean: ReplyView = {
  reply: reply({
    frameCount: 6,
    choices: [choice({
      role: 'assistant', reasoning: 'Need the weather.', content: 'Let me check.', finishReason: 'tool_calls',
      toolCalls: [{
        index: 0, id: 'call_1', type: 'function', name: 'get_weather', arguments: '{"city":"Paris"}',
        parsedArguments: { city: 'Paris' }, argumentsError: null,
      }],
    })],
    usage: { prompt_tokens: 50, completion_tokens: 18, total_tokens: 68 },
  }),
  streamErrors: [],
  diagnostics: [],
}

describe('renderReply', () => {
  it('a clean reply: reasoning apart, content, pretty arguments, finish, usage', () => {
    expect(renderReply(clean)).toBe(lines(
      'openai-chat · sse · 6 frames · done',
      '',
      'choice 0 · assistant',
      '  reasoning',
      '  │ Need the weather.',
      '  content',
      '  │ Let me check.',
      '  tool call 0 · get_weather · id call_1',
      '  │ {',
      '  │   "city": "Paris"',
      '  │ }',
      '  finish tool_calls',
      '',
      'usage',
      '  prompt_tokens      50',
      '  completion_tokens  18',
      '  total_tokens       68',
    ))
  })

  it('everything that can go wrong, with control characters escaped', () => {
    const view: ReplyView = {
      reply: reply({
        done: false,
        frameCount: 7,
        choices: [
          choice({
            role: 'assistant', content: 'Hi\x1b[31m there\r\nline two\n', reasoning: 'think\u202eing', finishReason: 'length',
            toolCalls: [
              { index: 0, id: 'call_1', type: 'function', name: 'get_weather', arguments: '{"city":"Par', parsedArguments: null, argumentsError: 'Unexpected end of JSON input at position 12' },
              { index: 3, id: null, type: 'custom', name: null, arguments: '', parsedArguments: null, argumentsError: 'Unexpected end of JSON input at position 0' },
            ],
          }),
          choice({ index: 1, refusal: "I can't help with that." }),
          choice({ index: 2, finishReason: 'stop' }),
        ],
        usage: { prompt_tokens: 5, details: { cached: 1, empty: {} }, list: [1, 2], tier: 'standard', none: null },
        errors: [{ frame: 3, offset: 100, line: 9, raw: 'data: {"a":\ndata: 1,\n', message: 'Unexpected end of JSON input at position 9' }],
      }),
      streamErrors: [{ frame: 5, message: 'Provider disconnected', code: 502, type: 'server_error', payload: {} }],
      diagnostics: [
        { frame: null, level: 'warning', code: 'no-terminal-event', message: 'the stream ended', symptom: 'a client hangs' },
        { frame: 2, level: 'info', code: 'note', message: 'ignored event "x"', symptom: 'nothing' },
        { frame: 4, level: 'info', code: 'note', message: 'ignored event "x"', symptom: 'nothing' },
      ],
      lineOf: (f) => f * 2 + 1,
    }
    expect(renderReply(view)).toBe(lines(
      'openai-chat · sse · 7 frames · not done: no terminal event · 1 broken frame',
      '',
      'choice 0 · assistant',
      '  reasoning',
      '  │ think\\u202eing',
      '  content',
      '  │ Hi\\u001b[31m there',
      '  │ line two',
      '  │',
      '  tool call 0 · get_weather · id call_1',
      '  arguments do not parse: Unexpected end of JSON input at position 12',
      '  │ {"city":"Par',
      '  tool call 3 · (no name) · custom',
      '  arguments do not parse: Unexpected end of JSON input at position 0',
      '  (the arguments are an empty string)',
      '  finish length',
      '',
      'choice 1',
      '  refusal',
      "  │ I can't help with that.",
      '  finish (none)',
      '',
      'choice 2',
      '  content (empty)',
      '  finish stop',
      '',
      'usage',
      '  prompt_tokens   5',
      '  details.cached  1',
      '  details.empty   {}',
      '  list            [1,2]',
      '  tier            standard',
      '  none            null',
      '',
      'stream errors (1)',
      '  frame 5 · line 11: Provider disconnected (server_error, code 502)',
      '',
      'broken frames (1)',
      '  frame 3 · line 9: Unexpected end of JSON input at position 9',
      '  │ data: {"a":',
      '  │ data: 1,',
      '',
      'diagnostics',
      '  warning  the stream ended',
      '  info     frame 2 · line 5: ignored event "x" (×2)',
    ))
  })

  it('no choices, no line numbers known, long raw lines clipped in the middle, long lists cut', () => {
    const raw = 'data: ' + 'x'.repeat(300) + 'END'
    const errors = Array.from({ length: LIST_LIMIT + 2 }, (_, i) => ({ frame: i, offset: 0, line: i + 1, raw, message: 'bad' }))
    const out = renderReply({
      reply: reply({ transport: 'unknown', provider: 'generic', done: false, frameCount: 0, errors }),
      streamErrors: [],
      diagnostics: [{ frame: 0, level: 'error', code: 'unknown-transport', message: 'No frames read', symptom: 'a client shows nothing' }],
    })
    const rows = out.split('\n')
    expect(rows.slice(0, 4)).toEqual([
      'generic · unknown · 0 frames · no frames · 22 broken frames', '', '(no choice was rebuilt)', '',
    ])
    expect(rows[4]).toBe('broken frames (22)')
    expect(rows[5]).toBe('  frame 0 · line 1: bad')
    expect(rows[6]).toBe(`  │ data: ${'x'.repeat(103)} … ${'x'.repeat(85)}END`)
    expect(rows[6]!.length).toBe(2 + 2 + 200)
    expect(rows.slice(-5)).toEqual([
      '  … and 2 more broken frames (--json lists them all)', '', 'diagnostics', '  error    frame 0: No frames read', '',
    ])
  })

  it('colour: ANSI codes around labels and verdicts, none in plain mode', () => {
    const out = renderReply(clean, ANSI)
    expect(out.split('\n')[0]).toBe('\x1b[1mopenai-chat\x1b[22m · sse · 6 frames · \x1b[32mdone\x1b[39m')
    expect(out).toContain('  \x1b[35mreasoning\x1b[39m\n  \x1b[2m│ \x1b[22m\x1b[2mNeed the weather.\x1b[22m\n')
    expect(renderReply(clean, PLAIN)).not.toContain('\x1b')
  })

  it('renderSummary: the verdict and the problems, without the reply', () => {
    expect(renderSummary({
      reply: reply({ frameCount: 3, done: false, choices: clean.reply.choices, usage: { a: 1 } }),
      streamErrors: [{ frame: 2, message: 'Overloaded', code: null, type: 'overloaded_error', payload: null }],
      diagnostics: [],
    })).toBe(lines(
      'openai-chat · sse · 3 frames · not done: no terminal event',
      '',
      'stream errors (1)',
      '  frame 2: Overloaded (overloaded_error)',
    ))
  })
})

describe('renderUsage', () => {
  it('flattens nested objects to dotted keys and keeps arrays compact', () => {
    expect(renderUsage({ promptTokenCount: 58, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 58 }], x: { y: { z: 1 } } })).toEqual([
      '  promptTokenCount     58',
      '  promptTokensDetails  [{"modality":"TEXT","tokenCount":58}]',
      '  x.y.z                1',
    ])
  })
})

describe('frames', () => {
  it('header and rows in fixed columns', () => {
    expect(renderFramesHeader()).toBe('  seq    line  event                         kind       bytes  data\n')
    const json = { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }] }
    expect(renderFrameRow(frame({ seq: 3, line: 7, byteStart: 10, byteEnd: 120, json }))).toBe(
      '    3       7  -                             data         110  content:"Hello"\n')
    expect(renderFrameRow(frame({ seq: 12, line: 40, event: 'response.reasoning_summary_text.delta', byteEnd: 99, json: { type: 'response.reasoning_summary_text.delta', delta: 'Hm' } }))).toBe(
      '   12      40  …easoning_summary_text.delta  data          99  delta:"Hm"\n')
    expect(renderFrameRow(frame({ seq: 4, kind: 'done', byteEnd: 12, data: '[DONE]', unterminated: true }))).toBe(
      '    4       1  -                             done          12  [unterminated] [DONE]\n')
    expect(renderFrameRow(frame({ seq: 5, kind: 'invalid', data: '{"a":', error: { message: 'Unexpected end of JSON input at position 5', position: 5 } }))).toBe(
      '    5       1  -                             invalid        0  Unexpected end of JSON input at position 5\n')
  })

  it('summaries: informative leaves first, type values bare, repeated keys late, clipped to 60', () => {
    expect(frameSummary(frame({ event: 'content_block_delta', json: { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } } })))
      .toBe('text_delta text:"Hi"')
    expect(frameSummary(frame({ json: { model: 'qwen3', created_at: 't', message: { role: 'assistant', content: '', thinking: 'Ok' }, done: false } })))
      .toBe('thinking:"Ok" role:"assistant"')
    expect(frameSummary(frame({ event: 'ping', data: '{"type":"ping"}', json: { type: 'ping' } }))).toBe('{"type":"ping"}')
    expect(frameSummary(frame({ json: { choices: [{ delta: { content: 'a\u001bb\n' + 'x'.repeat(80) } }] } })))
      .toBe('content:"a\\u001bb\\n' + 'x'.repeat(40) + '…')
    expect(frameSummary(frame({ json: { choices: [{ delta: { content: 'x'.repeat(80) } }] } })).length).toBe(60)
    expect(frameSummary(frame({ data: 'text \u009b', json: undefined }))).toBe('text \\u009b')
  })

  it('frameJson leaves out the parsed json and keeps everything else', () => {
    const f = frame({ seq: 1, raw: 'data: {"a":1}\n', data: '{"a":1}', json: { a: 1 }, start: 5, end: 19, byteStart: 5, byteEnd: 19, line: 3 })
    expect(frameJson(f)).toBe('{"seq":1,"kind":"data","raw":"data: {\\"a\\":1}\\n","start":5,"end":19,"byteStart":5,"byteEnd":19,"line":3,"event":null,"id":null,"retry":null,"data":"{\\"a\\":1}","time":null,"unterminated":false}')
    const bad = frame({ kind: 'invalid', data: '{', error: { message: 'm', position: 1 } })
    expect(JSON.parse(frameJson(bad)).error).toEqual({ message: 'm', position: 1 })
  })
})

describe('text helpers', () => {
  it('safeText keeps newlines and tabs, reads CRLF as a newline, escapes the rest', () => {
    expect(safeText('a\tb\r\nc\rd\x1b\x07\u2028\u2066')).toBe('a\tb\nc\\rd\\u001b\\u0007\\u2028\\u2066')
    expect(safeLine('a\nb\tc')).toBe('a\\nb\\tc')
  })
  it('clip and clipStart', () => {
    expect(clip('abcdef', 4)).toBe('abc…')
    expect(clip('abc', 4)).toBe('abc')
    expect(clipStart('abcdef', 4)).toBe('…def')
  })
  it('colour only on a terminal without NO_COLOR', () => {
    expect(wantsColor(true, {})).toBe(true)
    expect(wantsColor(true, { NO_COLOR: '1' })).toBe(false)
    expect(wantsColor(false, {})).toBe(false)
    expect(wantsColor(undefined, {})).toBe(false)
  })
})
