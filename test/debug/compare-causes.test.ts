// compareReply's causes, each produced the way a real client produces it: a hand-written
// OpenAI chat client with one bug switched on reads a repository fixture cut into network
// reads, and the difference must name that cause at the right frame.
//
// test/fixtures/openai-chat/demo-reasoning-parallel-tools.sse, by frame: 0 role; 1–3 reasoning
// ("The user asks about Paris " / "weather; I should call the tool " / "for both cities in
// parallel."); 4–5 content ("Let me check " / "the weather in Paris and Lyon — one moment ☀️.");
// 6–7 tool calls 0 and 1 start (call_paris, call_lyon, get_weather); 8–11 their arguments,
// interleaved; 12 finish tool_calls; 13 usage; 14 [DONE].

import { describe, expect, it } from 'vitest'
import { merge } from '../../src/library.js'
import { COMPARE_CAUSES, compareReply } from '../../src/index.js'
import { after, at, buggyChatClient, cutAt, cutEvery, fixtureOf, wire } from './compare-support.js'

const DEMO = 'openai-chat/demo-reasoning-parallel-tools.sse'
const demo = wire(DEMO)
const REASONING = 'The user asks about Paris weather; I should call the tool for both cities in parallel.'
const CONTENT = 'Let me check the weather in Paris and Lyon — one moment ☀️.'
const PARIS = '{"city": "Paris", "unit": "celsius"}'
const LYON = '{"city": "Lyon", "unit": "celsius"}'
const CALLS = [
  { id: 'call_paris', name: 'get_weather', arguments: PARIS },
  { id: 'call_lyon', name: 'get_weather', arguments: LYON },
]

describe('the causes', () => {
  it('are documented kebab-case codes, in the order they are tried', () => {
    expect(Object.keys(COMPARE_CAUSES)).toEqual([
      'utf8-split', 'reasoning-in-content', 'content-in-reasoning', 'overwritten', 'duplicated-frames', 'truncated',
      'dropped-frames', 'tool-calls-merged', 'tool-calls-split', 'tool-arguments-differ', 'finish-reason-differs', 'other',
    ])
    for (const description of Object.values(COMPARE_CAUSES)) expect(description).toMatch(/^[A-Z].*\.$/)
  })

  it('a correct client over any reads is equal (refusal not compared: the client keeps none)', () => {
    const reads = cutEvery(demo, 7)
    expect(compareReply(fixtureOf(DEMO, reads), buggyChatClient(reads))).toEqual({ equal: true, differences: [], notCompared: ['choices[0].refusal'] })
  })
})

describe('utf8-split', () => {
  const reads = cutAt(demo, [at(demo, '☀') + 1])

  it('a client decoding each read without {stream: true} turns the split ☀ into U+FFFD: named at frame 5 and reads 0 and 1', () => {
    const result = compareReply(fixtureOf(DEMO, reads), buggyChatClient(reads, { decodePerRead: true }))
    expect(result.differences).toEqual([{
      field: 'choices[0].content', expected: CONTENT, got: 'Let me check the weather in Paris and Lyon — one moment \ufffd\ufffd\ufffd️.',
      offset: 56, frame: 5, cause: 'utf8-split',
      message: 'The client decoded each network read on its own (without {stream: true}): "☀" in frame 5 was split across reads 0 and 1 and came out as U+FFFD U+FFFD U+FFFD.',
    }])
  })

  it('without the reads (a body reference) the same damage is still utf8-split, and the message says where the reads were cut is not known', () => {
    const result = compareReply(demo, buggyChatClient(reads, { decodePerRead: true }))
    expect(result.differences.map((d) => [d.cause, d.frame, d.message])).toEqual([[
      'utf8-split', 5, 'The client turned "☀" in frame 5 into U+FFFD U+FFFD U+FFFD: it decoded network reads on their own (without {stream: true}), splitting the character; the reference has no network reads, so where they were cut is not known.',
    ]])
  })

  it('a capture that holds the body as one read (every capture without Live): still utf8-split, the message says the capture does not know where the reads were cut', () => {
    const result = compareReply(fixtureOf(DEMO), CONTENT.replace('☀', '\ufffd'))
    expect(result.differences.map((d) => [d.cause, d.offset, d.frame, d.message])).toEqual([['utf8-split', 56, 5,
      'The client turned "☀" in frame 5 into U+FFFD: it decoded network reads on their own (without {stream: true}), splitting the character; the capture holds the body as one read (captured without Live), so where the reads were cut is not known.']])
  })

  it('when the capture\'s reads show the character arrived whole, a U+FFFD in its place is utf8-split all the same (the client\'s reads are not the capture\'s), the read named', () => {
    const whole = cutAt(demo, [at(demo, '☀')])
    const result = compareReply(fixtureOf(DEMO, whole), CONTENT.replace('☀', '\ufffd'))
    expect(result.differences.map((d) => [d.field, d.cause, d.offset, d.frame, d.message])).toEqual([['choices[0].content', 'utf8-split', 56, 5,
      'The client turned "☀" in frame 5 into U+FFFD: it decoded network reads on their own (without {stream: true}), splitting the character; in the capture it arrived whole in read 1, so the client\'s own reads were cut elsewhere.']])
  })

  it('one U+FFFD for each of two characters ("Moon over �� tonight." against "Moon over 灯塔 tonight."): how many each took is searched', () => {
    const body = 'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Moon over "}}]}\n\n'
      + 'data: {"choices":[{"index":0,"delta":{"content":"灯塔 tonight."}}]}\n\n'
      + 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    expect(compareReply(body, 'Moon over \ufffd\ufffd tonight.').differences.map((d) => [d.cause, d.offset, d.frame, d.message])).toEqual([['utf8-split', 10, 1,
      'The client turned "灯" in frame 1 into U+FFFD (2 characters damaged): it decoded network reads on their own (without {stream: true}), splitting the character; the reference has no network reads, so where they were cut is not known.']])
    // a U+FFFD too many is no split: other
    expect(compareReply(body, 'Moon over \ufffd\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd tonight.').differences.map((d) => d.cause)).toEqual(['other'])
  })

  it('mojibake (the bytes read as Windows-1252) is utf8-split too', () => {
    const result = compareReply(fixtureOf(DEMO, reads), CONTENT.replace('☀', 'â˜€'))
    expect(result.differences.map((d) => [d.cause, d.offset, d.frame])).toEqual([['utf8-split', 56, 5]])
    expect(result.differences[0]!.message).toBe('The client decoded each network read on its own (without {stream: true}): "☀" in frame 5 was split across reads 0 and 1 and came out as "â˜€".')
  })
})

describe('reasoning-in-content and content-in-reasoning', () => {
  const reads = cutEvery(demo, 100)
  const fixture = fixtureOf(DEMO, reads)

  it('a client appending reasoning deltas to the content buffer: both fields name the cause, at the first reasoning frame', () => {
    expect(compareReply(fixture, buggyChatClient(reads, { reasoningIntoContent: true })).differences).toEqual([
      {
        field: 'choices[0].content', expected: CONTENT, got: REASONING + CONTENT, offset: 0, frame: 1, cause: 'reasoning-in-content',
        message: 'The client wrote the reasoning (frames 1–3) into the content: both channels went into one buffer.',
      },
      {
        field: 'choices[0].reasoning', expected: REASONING, got: '', offset: 0, frame: 1, cause: 'reasoning-in-content',
        message: 'The client has no reasoning apart: it wrote the reasoning into the content.',
      },
    ])
  })

  it('a client appending content deltas to the reasoning buffer: the reasoning differs from its end, at the first content frame', () => {
    expect(compareReply(fixture, buggyChatClient(reads, { contentIntoReasoning: true })).differences).toEqual([
      {
        field: 'choices[0].content', expected: CONTENT, got: '', offset: 0, frame: 4, cause: 'content-in-reasoning',
        message: 'The client has no content apart: it wrote the content into the reasoning.',
      },
      {
        field: 'choices[0].reasoning', expected: REASONING, got: REASONING + CONTENT, offset: 86, frame: 4, cause: 'content-in-reasoning',
        message: 'The client wrote the content (frames 4 and 5) into the reasoning: both channels went into one buffer.',
      },
    ])
  })
})

describe('overwritten', () => {
  it('a client assigning content = delta.content keeps the last delta (frame 5); the frame is the one whose text it lost first', () => {
    const reads = cutEvery(demo, 100)
    expect(compareReply(fixtureOf(DEMO, reads), buggyChatClient(reads, { replaceContent: true })).differences).toEqual([{
      field: 'choices[0].content', expected: CONTENT, got: 'the weather in Paris and Lyon — one moment ☀️.', offset: 0, frame: 4, cause: 'overwritten',
      message: 'The client kept only the text of frame 5 (the last of 2 frames writing the content): it replaced the content with each delta instead of appending.',
    }])
  })

  it('when the lost frame arrived split across reads and the kept one whole, the reads explain it: dropped-frames, not overwritten', () => {
    const reads = cutAt(demo, [after(demo, 'Let me check ')])
    const result = compareReply(fixtureOf(DEMO, reads), buggyChatClient(reads, { parsePerRead: true }))
    expect(result.differences.map((d) => [d.field, d.cause, d.frame])).toEqual([['choices[0].content', 'dropped-frames', 4]])
  })

  it('an empty field whose frames all arrived split, from a client that read nothing whole: dropped-frames, though a later frame sends the key as null', () => {
    // DeepSeek sends reasoning_content: null once the answer starts (frame 4): a replacing client would end empty too
    const name = 'openai-chat/deepseek-reasoning-content.sse'
    const reads = cutEvery(wire(name), 7)
    const result = compareReply(fixtureOf(name, reads), buggyChatClient(reads, { parsePerRead: true }))
    expect(result.differences.find((d) => d.field === 'choices[0].reasoning')).toMatchObject({ cause: 'dropped-frames', frame: 1 })
  })
})

describe('duplicated-frames', () => {
  it('a client that keeps its buffer when a read ends exactly at a blank line reads frame 1 again', () => {
    // read 0 ends inside frame 1, read 1 ends right after frame 1's blank line
    const reads = cutAt(demo, [after(demo, 'about Paris'), after(demo, '"usage":null}\n\n', 2)])
    expect(compareReply(fixtureOf(DEMO, reads), buggyChatClient(reads, { keepBufferAtBoundary: true })).differences).toEqual([{
      field: 'choices[0].reasoning', expected: REASONING, got: 'The user asks about Paris ' + REASONING, offset: 26, frame: 1, cause: 'duplicated-frames',
      message: 'The client applied frame 1 twice: its text "The user asks about Paris " appears twice in the reasoning.',
    }])
  })
})

describe('truncated', () => {
  const BROKEN = 'openai-chat/malformed-frame-mid-stream.sse'

  it('a client that stops at a broken frame: the text stops before frame 2, and frame 1 is named as where it stopped', () => {
    const reads = cutEvery(wire(BROKEN), 50)
    expect(compareReply(fixtureOf(BROKEN, reads), buggyChatClient(reads, { stopAtBrokenFrame: true })).differences).toEqual([
      {
        field: 'choices[0].content', expected: 'AC', got: 'A', offset: 1, frame: 2, cause: 'truncated',
        message: 'The client\'s content stops at character 1, before the text of frame 2: frame 1 before it failed to parse and the client stopped there.',
      },
      {
        field: 'choices[0].finishReason', expected: 'stop', got: null, offset: null, frame: 3, cause: 'finish-reason-differs',
        message: 'The client has no finish reason; the reference\'s is "stop" (set by frame 3, after frame 1 failed to parse: a client that stops at a broken frame never reads it).',
      },
    ])
  })

  it('a client that stopped reading after frame 2: the reasoning stops at a frame boundary, before frame 3', () => {
    const end = after(demo, 'call the tool "},"logprobs":null,"finish_reason":null}],"usage":null}\n\n')
    const reads = cutAt(demo, [end])
    const result = compareReply(fixtureOf(DEMO, reads), buggyChatClient(reads.slice(0, 1)))
    expect(result.differences.map((d) => [d.field, d.cause, d.frame])).toEqual([
      ['choices[0].content', 'truncated', 4],
      ['choices[0].reasoning', 'truncated', 3],
      ['choices[0].toolCalls', 'other', null],
      ['choices[0].finishReason', 'finish-reason-differs', 12],
      ['usage', 'other', null],
    ])
    expect(result.differences[1]).toEqual({
      field: 'choices[0].reasoning', expected: REASONING, got: 'The user asks about Paris weather; I should call the tool ', offset: 58, frame: 3, cause: 'truncated',
      message: 'The client\'s reasoning stops at character 58, before the text of frame 3.',
    })
    expect(result.differences[0]!.message).toBe('The client\'s content is empty: it lacks the text of frames 4 and 5.')
  })
})

describe('dropped-frames', () => {
  it('a client that parses each read on its own loses frame 2, split across reads 0 and 1; the rest is equal', () => {
    const reads = cutAt(demo, [after(demo, 'I should call')])
    expect(compareReply(fixtureOf(DEMO, reads), buggyChatClient(reads, { parsePerRead: true })).differences).toEqual([{
      field: 'choices[0].reasoning', expected: REASONING, got: 'The user asks about Paris for both cities in parallel.', offset: 26, frame: 2, cause: 'dropped-frames',
      message: 'The client dropped frame 2: its text ("weather; I should call the tool ") is missing from the reasoning; frame 2 arrived split across reads 0 and 1: a client that parses each read on its own drops it.',
    }])
  })

  it('a lost frame the capture got whole: the read it arrived in is named, and the capture\'s reads are said not to explain it', () => {
    const reads = cutAt(demo, [after(demo, 'Let me check')])
    const got = { choices: [{ index: 0, message: { role: 'assistant', content: CONTENT, reasoning_content: REASONING.replace('weather; I should call the tool ', '') }, finish_reason: 'tool_calls' }] }
    expect(compareReply(fixtureOf(DEMO, reads), got).differences.filter((d) => d.field === 'choices[0].reasoning')).toEqual([{
      field: 'choices[0].reasoning', expected: REASONING, got: 'The user asks about Paris for both cities in parallel.', offset: 26, frame: 2, cause: 'dropped-frames',
      message: 'The client dropped frame 2: its text ("weather; I should call the tool ") is missing from the reasoning; in the capture frame 2 arrived whole in read 0: its reads alone do not explain the loss (the client\'s own reads may have been cut elsewhere).',
    }])
  })

  it('lost frames in every field: each field names its own, the last one of a field too (the client read later frames, so it did not stop)', () => {
    const reads = cutAt(demo, [after(demo, 'I should call'), after(demo, 'in parallel.'), after(demo, 'the weather in'), after(demo, '"arguments":"\\"Lyon')])
    expect(compareReply(fixtureOf(DEMO, reads), buggyChatClient(reads, { parsePerRead: true })).differences).toEqual([
      {
        field: 'choices[0].content', expected: CONTENT, got: 'Let me check ', offset: 13, frame: 5, cause: 'dropped-frames',
        message: 'The client dropped frame 5: its text ("the weather in Paris and Lyon — one mome…") is missing from the content; frame 5 arrived split across reads 2 and 3: a client that parses each read on its own drops it.',
      },
      {
        field: 'choices[0].reasoning', expected: REASONING, got: 'The user asks about Paris ', offset: 26, frame: 2, cause: 'dropped-frames',
        message: 'The client dropped frames 2 and 3: their text ("weather; I should call the tool ", …) is missing from the reasoning; frame 2 arrived split across reads 0 and 1, frame 3 across reads 1 and 2: a client that parses each read on its own drops them.',
      },
      {
        field: 'choices[0].toolCalls[1].arguments', expected: LYON, got: '{"city": ', offset: 9, frame: 11, cause: 'dropped-frames',
        message: 'The client dropped frame 11: its text ("\\"Lyon\\", \\"unit\\": \\"celsius\\"}") is missing from the arguments of tool call 1; frame 11 arrived split across reads 3 and 4: a client that parses each read on its own drops it.',
      },
    ])
  })

  it('a client that parses each read on its own, over reads of 100 bytes, loses every frame: each field says so', () => {
    const reads = cutEvery(demo, 100)
    expect(compareReply(fixtureOf(DEMO, reads), buggyChatClient(reads, { parsePerRead: true })).differences.map((d) => [d.field, d.cause, d.frame, d.message])).toEqual([
      ['choices[0].content', 'dropped-frames', 4, 'The client dropped frames 4 and 5: their text ("Let me check ", …) is missing from the content; frame 4 arrived split across reads 11 to 13, frame 5 across reads 13 to 16: a client that parses each read on its own drops them.'],
      ['choices[0].reasoning', 'dropped-frames', 1, 'The client dropped frames 1–3: their text ("The user asks about Paris ", …) is missing from the reasoning; frame 1 arrived split across reads 2 to 5, frame 2 across reads 5 to 8, frame 3 across reads 8 to 11: a client that parses each read on its own drops them.'],
      ['choices[0].toolCalls', 'dropped-frames', 6, 'The client has none of the 2 tool calls: frames 6–11, which carried them, arrived split across reads, and a client that parses each read on its own drops them.'],
      ['choices[0].finishReason', 'finish-reason-differs', 12, 'The client has no finish reason; the reference\'s is "tool_calls" (set by frame 12, which arrived split across reads 35 to 38: a client that parses each read on its own drops it).'],
      ['usage', 'other', null, 'The client has no usage; the reference has the provider\'s usage.'],
    ])
  })

  it('a lost frame that named a tool call: its name and id are missing, and the split frame 6 is named', () => {
    const reads = cutAt(demo, [after(demo, 'call_paris')])
    expect(compareReply(fixtureOf(DEMO, reads), buggyChatClient(reads, { parsePerRead: true })).differences).toEqual([
      {
        field: 'choices[0].toolCalls[0].name', expected: 'get_weather', got: '', offset: null, frame: 6, cause: 'dropped-frames',
        message: 'The client has no name for tool call 0: frame 6, which gave it, arrived split across reads 0 and 1: a client that parses each read on its own drops it.',
      },
      {
        field: 'choices[0].toolCalls[0].id', expected: 'call_paris', got: null, offset: null, frame: 6, cause: 'dropped-frames',
        message: 'The client has no id for tool call 0: frame 6, which gave it, arrived split across reads 0 and 1: a client that parses each read on its own drops it.',
      },
    ])
  })
})

describe('tool calls', () => {
  const reads = cutEvery(demo, 64)
  const fixture = fixtureOf(DEMO, reads)

  it('tool-calls-merged: a client keying calls by name folds both get_weather calls into one, at frame 9 (call 1\'s first fragment)', () => {
    expect(compareReply(fixture, buggyChatClient(reads, { toolsByName: true })).differences).toEqual([{
      field: 'choices[0].toolCalls', expected: CALLS,
      got: [{ id: 'call_paris', name: 'get_weather', arguments: '{"city": "Pa{"city": ris", "unit": "celsius"}"Lyon", "unit": "celsius"}' }],
      offset: null, frame: 9, cause: 'tool-calls-merged',
      message: 'The client merged tool calls 0 and 1 into one: it keyed calls by name, and both are named "get_weather".',
    }])
  })

  it('tool-calls-split: a client keying calls by id makes every id-less fragment a call of its own, from frame 10', () => {
    const result = compareReply(fixture, buggyChatClient(reads, { toolsById: true }))
    expect(result.differences.map(({ expected, got, ...rest }) => rest)).toEqual([{
      field: 'choices[0].toolCalls', offset: null, frame: 10, cause: 'tool-calls-split',
      message: 'The client split 2 tool calls into 6: frame 10 continued tool call 0 and the client took it for a new call.',
    }])
    expect((result.differences[0]!.got as unknown[]).length).toBe(6)
  })

  it('tool-arguments-differ: a client re-serialising arguments differs from character 8, at the frame that wrote it', () => {
    expect(compareReply(fixture, buggyChatClient(reads, { reformatArguments: true })).differences).toEqual([
      {
        field: 'choices[0].toolCalls[0].arguments', expected: PARIS, got: '{"city":"Paris","unit":"celsius"}', offset: 8, frame: 8, cause: 'tool-arguments-differ',
        message: 'The client\'s arguments of tool call 0 differ from character 8: it has "\\"Paris\\",\\"unit\\":\\"celsius\\"}" where the reference has " \\"Paris\\", \\"unit\\": \\"celsius\\"}".',
      },
      {
        field: 'choices[0].toolCalls[1].arguments', expected: LYON, got: '{"city":"Lyon","unit":"celsius"}', offset: 8, frame: 9, cause: 'tool-arguments-differ',
        message: 'The client\'s arguments of tool call 1 differ from character 8: it has "\\"Lyon\\",\\"unit\\":\\"celsius\\"}" where the reference has " \\"Lyon\\", \\"unit\\": \\"celsius\\"}".',
      },
    ])
  })

  it('tool-calls-merged by value: a Gemini client keeping one call per name holds the last call\'s args', () => {
    const name = 'gemini/parallel-identical-calls.sse'
    const got = { candidates: [{ index: 0, content: { role: 'model', parts: [{ text: '**Planning** need weather', thought: true }, { functionCall: { name: 'get_weather', args: { city: 'Lyon', unit: 'celsius' } } }] }, finishReason: 'STOP' }] }
    const result = compareReply(fixtureOf(name), got)
    expect(result.differences.map((d) => [d.field, d.cause, d.frame, d.message])).toEqual([[
      'choices[0].toolCalls', 'tool-calls-merged', 1, 'The client merged tool calls 0, 1 and 2 into one: it keyed calls by name, and all are named "get_weather".',
    ]])
  })
})

describe('finish-reason-differs and other', () => {
  it('finish-reason-differs: a client reporting every finish as "stop" is named at frame 12, which set "tool_calls"', () => {
    const reads = cutEvery(demo, 64)
    expect(compareReply(fixtureOf(DEMO, reads), buggyChatClient(reads, { finishAlwaysStop: true })).differences).toEqual([{
      field: 'choices[0].finishReason', expected: 'tool_calls', got: 'stop', offset: null, frame: 12, cause: 'finish-reason-differs',
      message: 'The client\'s finish reason is "stop"; the reference\'s is "tool_calls" (set by frame 12).',
    }])
  })

  it('a client that waits for a blank line never reads the unterminated last frame: its finish reason is missing', () => {
    const name = 'openai-chat/ping-block-and-unterminated-last-frame.sse'
    const reads = cutEvery(wire(name), 64)
    expect(compareReply(fixtureOf(name, reads), buggyChatClient(reads, { needsBlankLine: true })).differences).toEqual([{
      field: 'choices[0].finishReason', expected: 'stop', got: null, offset: null, frame: 2, cause: 'finish-reason-differs',
      message: 'The client has no finish reason; the reference\'s is "stop" (set by frame 2, which no blank line ended: a client that waits for one never reads it).',
    }])
  })

  it('other: usage summed over the chunks is named as such, at the frame that set the last value', () => {
    const name = 'openai-chat/duplicate-finish-and-usage.sse'
    const result = compareReply(fixtureOf(name), buggyChatClient([wire(name)], { sumUsage: true }))
    expect(result.differences[0]).toEqual({
      field: 'usage.prompt_tokens', expected: 14, got: 28, offset: null, frame: 2, cause: 'other',
      message: 'The client\'s usage.prompt_tokens is 28; the reference\'s is 14 (set by frame 2): it summed the 2 values the stream sent instead of keeping the last.',
    })
  })

  it('other: text no cause explains, at the frame that wrote the expected text there', () => {
    expect(compareReply(demo, 'Let me check the forecast.').differences).toEqual([{
      field: 'choices[0].content', expected: CONTENT, got: 'Let me check the forecast.', offset: 17, frame: 5, cause: 'other',
      message: 'The client\'s content differs from character 17: it has "forecast." where the reference has "weather in Paris and Lyon — one moment ☀…".',
    }])
  })

  it('other: a name appended from every fragment is said so', () => {
    const got = merge(demo)
    got.choices[0]!.toolCalls[1]!.name = 'get_weatherget_weather'
    expect(compareReply(fixtureOf(DEMO), got).differences).toEqual([{
      field: 'choices[0].toolCalls[1].name', expected: 'get_weather', got: 'get_weatherget_weather', offset: null, frame: 7, cause: 'other',
      message: 'The client appended the name of tool call 1 from every fragment ("get_weatherget_weather"): a name repeated in each fragment is not doubled.',
    }])
  })
})

describe('a bare Reply as the reference', () => {
  it('has no frames: frame is null and the causes that need frames give way to other', () => {
    const reads = cutEvery(demo, 100)
    const result = compareReply(merge(demo), buggyChatClient(reads, { replaceContent: true, reasoningIntoContent: false, toolsByName: true }))
    expect(result.differences.map((d) => [d.field, d.cause, d.frame])).toEqual([
      ['choices[0].content', 'other', null],
      ['choices[0].toolCalls', 'other', null],
    ])
  })

  it('keeps the text-only causes: reasoning and content run together are still named', () => {
    const result = compareReply(merge(demo), REASONING + CONTENT)
    expect(result.differences.map((d) => [d.field, d.cause, d.offset, d.frame])).toEqual([['choices[0].content', 'reasoning-in-content', 0, null]])
  })
})
