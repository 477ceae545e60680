import { describe, expect, it } from 'vitest'
import { lobechat } from '../../src/providers/lobechat.js'
import { defaultRegistry } from '../../src/providers/index.js'
import type { Delta } from '../../src/index.js'

/** Feeds LobeChat blocks ([event, data]) through one mapper, then flushes it. */
function mapAll(frames: Array<[string | null, unknown]>): { deltas: Delta[][]; flushed: Delta[] } {
  const mapper = lobechat.createMapper()
  const deltas = frames.map(([event, json], seq) => mapper.map({ seq, event, json }))
  return { deltas, flushed: mapper.flush?.() ?? [] }
}

const yes = (event: string | null, json: unknown) => lobechat.recognizes({ seq: 0, event, json })
const ASSISTANT: Delta = { type: 'choice', choice: 0, role: 'assistant' }

describe('lobechat.recognizes', () => {
  it('claims a frame whose SSE event name is a LobeChat channel and whose data has that channel\'s shape', () => {
    expect(yes('text', 'Hi')).toBe(true)
    expect(yes('reasoning', 'hmm')).toBe(true)
    expect(yes('tool_calls', [{ index: 0, function: { arguments: '{' } }])).toBe(true)
    expect(yes('stop', 'stop')).toBe(true)
    expect(yes('usage', { totalTokens: 3 })).toBe(true)
    expect(yes('error', { body: { message: 'x' }, type: 'ProviderBizError' })).toBe(true)
  })

  it('claims every event: data frame, whatever upstream object it carries', () => {
    expect(yes('data', { type: 'content_block_stop', index: 0 })).toBe(true)
    expect(yes('data', { object: 'chat.completion.chunk', choices: [] })).toBe(true)
    expect(yes('data', '')).toBe(true)
  })

  it('leaves frames without an event name, other names and other shapes alone', () => {
    expect(yes(null, 'Hi')).toBe(false)
    expect(yes('message', { text: 'Hi' })).toBe(false)
    expect(yes('text', { text: 'Hi' })).toBe(false)
    expect(yes('tool_calls', [])).toBe(false)
    expect(yes('tool_calls', [{ function: {} }])).toBe(false)
    expect(yes('usage', { input_tokens: 3 })).toBe(false)
    expect(yes('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toBe(false)
    expect(yes('error', { type: 'server_error', message: 'x', sequence_number: 4 })).toBe(false)
    expect(yes('message_start', { type: 'message_start', message: {} })).toBe(false)
  })

  it('wins over Anthropic and OpenAI for the upstream objects inside event: data, and only there', () => {
    const recognize = (event: string | null, json: unknown) => defaultRegistry.recognize({ seq: 0, event, json })?.id
    expect(recognize('data', { type: 'content_block_stop', index: 0 })).toBe('lobechat')
    expect(recognize('data', { object: 'chat.completion.chunk', choices: [] })).toBe('lobechat')
    expect(recognize('content_block_stop', { type: 'content_block_stop', index: 0 })).toBe('anthropic')
    expect(recognize(null, { type: 'content_block_stop', index: 0 })).toBe('anthropic')
    expect(recognize('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toBe('anthropic')
    expect(defaultRegistry.hint({ url: 'https://chat.example.com/webapi/chat/openai' })?.id).toBe('lobechat')
  })
})

describe('lobechat mapper', () => {
  it('text is content and reasoning is reasoning; null data is nothing; other data is a warning', () => {
    const { deltas } = mapAll([['reasoning', 'r'], ['text', 'a'], ['text', null], ['text', 5]])
    expect(deltas).toEqual([
      [ASSISTANT, { type: 'text', choice: 0, channel: 'reasoning', text: 'r' }],
      [{ type: 'text', choice: 0, channel: 'content', text: 'a' }],
      [],
      [{ type: 'note', level: 'warning', message: 'text event whose data is not a string: 5' }],
    ])
  })

  it('tool_calls fragments are keyed by their index and keep id, type, name and arguments', () => {
    const { deltas } = mapAll([['tool_calls', [{ index: 1, id: 'c', type: 'function', function: { name: 'f', arguments: '{' } }, { index: 2, function: { arguments: {} } }]]])
    expect(deltas[0]).toEqual([
      ASSISTANT,
      { type: 'tool-call', choice: 0, key: 1, id: 'c', callType: 'function', name: 'f', arguments: '{' },
      { type: 'tool-call', choice: 0, key: 2, id: null, callType: null, name: null, arguments: '{}' },
    ])
  })

  it('the first non-empty stop is the finish reason, a later one is a note, and the stream is done at its end', () => {
    const { deltas, flushed } = mapAll([['stop', ''], ['stop', 'end_turn'], ['usage', { totalTokens: 9 }], ['stop', 'message_stop']])
    expect(deltas).toEqual([
      [],
      [{ type: 'finish', choice: 0, reason: 'end_turn' }],
      [{ type: 'usage', usage: { totalTokens: 9 } }],
      [{ type: 'note', level: 'info', message: 'a later stop event "message_stop" after "end_turn": the first one is the finish reason' }],
    ])
    expect(flushed).toEqual([{ type: 'done' }])
  })

  it('without a stop or an error the stream is not done', () => {
    expect(mapAll([['text', 'a']]).flushed).toEqual([])
  })

  it('an error event is a stream error with the body\'s message, and ends the stream', () => {
    const payload = { body: { message: 'quota', errorType: 'InsufficientQuota' }, type: 'ProviderBizError' }
    const { deltas, flushed } = mapAll([['error', payload], ['error', 'plain']])
    expect(deltas).toEqual([
      [{ type: 'stream-error', message: 'quota', code: 'InsufficientQuota', errorType: 'ProviderBizError', payload }],
      [{ type: 'stream-error', message: 'plain', payload: 'plain' }],
    ])
    expect(flushed).toEqual([{ type: 'done' }])
  })

  it('data, speed and signatures are quiet; grounding and images are kept out with one note; unknown events get one note', () => {
    const { deltas } = mapAll([
      ['data', { type: 'content_block_stop', index: 0 }], ['speed', { tps: 1, ttft: 2 }], ['reasoning_signature', 'sig'],
      ['grounding', { citations: [] }], ['grounding', { citations: [] }], ['future_thing', 1], ['future_thing', 2],
    ])
    expect(deltas).toEqual([
      [], [], [],
      [{ type: 'note', level: 'info', message: 'grounding events kept out of the reply' }], [],
      [{ type: 'note', level: 'info', message: 'ignored LobeChat event "future_thing"' }], [],
    ])
  })
})
