// Seeded stream generators for the benchmarks: realistic frame shapes, any size.

import { random } from '../demo/wire.js'

export type StreamKind = 'openai' | 'anthropic' | 'ollama'

const WORDS = ['the', 'weather', 'in', 'Paris', 'is', 'mild', 'today,', 'with', 'light', 'rain', 'expected', 'später', 'météo', '天气', 'and', 'a', 'high', 'of', '18°C.', 'Let', 'me', 'check']

function words(next: () => number, n: number): string {
  const out: string[] = []
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(next() * WORDS.length)]!)
  return out.join(' ') + ' '
}

const q = (s: string) => JSON.stringify(s)

/** A body of about `bytes` UTF-8 bytes, with its terminal frames. */
export function generateStream(kind: StreamKind, bytes: number, seed = 42): string {
  const next = random(seed)
  const parts: string[] = []
  let size = 0
  const add = (s: string) => { parts.push(s); size += s.length }
  if (kind === 'openai') {
    const head = '"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1764700000,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_bench"'
    const chunk = (delta: string, finish = 'null') => `data: {${head},"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish}}],"usage":null}\n\n`
    add(chunk('{"role":"assistant","content":"","refusal":null}'))
    let call = 0
    while (size < bytes) {
      const r = next()
      if (r < 0.3) add(chunk(`{"reasoning_content":${q(words(next, 3))}}`))
      else if (r < 0.75) add(chunk(`{"content":${q(words(next, 2))}}`))
      else if (r < 0.8) { add(chunk(`{"tool_calls":[{"index":${call % 4},"id":"call_${call}","type":"function","function":{"name":"get_weather","arguments":""}}]}`)); call++ }
      else add(chunk(`{"tool_calls":[{"index":${Math.floor(next() * Math.min(4, Math.max(1, call)))},"function":{"arguments":${q('"city": "' + words(next, 1).trim())}}}]}`))
    }
    add(chunk('{}', '"tool_calls"'))
    add(`data: {${head},"choices":[],"usage":{"prompt_tokens":50,"completion_tokens":9000,"total_tokens":9050}}\n\n`)
    add('data: [DONE]\n\n')
  } else if (kind === 'anthropic') {
    const ev = (type: string, data: string) => `event: ${type}\ndata: ${data}\n\n`
    add(ev('message_start', '{"type":"message_start","message":{"id":"msg_bench","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":2,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}'))
    let block = 0
    while (size < bytes) {
      const type = block % 3 === 0 ? 'thinking' : block % 3 === 1 ? 'text' : 'tool_use'
      const start = type === 'thinking' ? '{"type":"thinking","thinking":"","signature":""}' : type === 'text' ? '{"type":"text","text":""}' : `{"type":"tool_use","id":"toolu_${block}","name":"get_weather","input":{}}`
      add(ev('content_block_start', `{"type":"content_block_start","index":${block},"content_block":${start}}`))
      const n = 20 + Math.floor(next() * 200)
      for (let i = 0; i < n && size < bytes; i++) {
        if (i % 37 === 5) add(ev('ping', '{"type": "ping"}'))
        const delta = type === 'thinking' ? `{"type":"thinking_delta","thinking":${q(words(next, 3))}}`
          : type === 'text' ? `{"type":"text_delta","text":${q(words(next, 2))}}`
          : `{"type":"input_json_delta","partial_json":${q(i === 0 ? '{"city": "' : words(next, 1))}}`
        add(ev('content_block_delta', `{"type":"content_block_delta","index":${block},"delta":${delta}}`))
      }
      if (type === 'tool_use') add(ev('content_block_delta', `{"type":"content_block_delta","index":${block},"delta":{"type":"input_json_delta","partial_json":"\\"}"}}`))
      add(ev('content_block_stop', `{"type":"content_block_stop","index":${block}}`))
      block++
    }
    add(ev('message_delta', '{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9000}}'))
    add(ev('message_stop', '{"type":"message_stop"}'))
  } else {
    let i = 0
    while (size < bytes) {
      const thinking = next() < 0.3
      add(JSON.stringify({ model: 'qwen3', created_at: `2025-05-27T22:54:${String(i % 60).padStart(2, '0')}.6Z`, message: { role: 'assistant', content: thinking ? '' : words(next, 2), ...(thinking ? { thinking: words(next, 3) } : {}) }, done: false }) + '\n')
      if (i % 500 === 499) add(JSON.stringify({ model: 'qwen3', created_at: '2025-05-27T22:55:00Z', message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] }, done: false }) + '\n')
      i++
    }
    add(JSON.stringify({ model: 'qwen3', created_at: '2025-05-27T22:56:00Z', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', total_duration: 4883583458, load_duration: 1334875, prompt_eval_count: 26, prompt_eval_duration: 342546000, eval_count: 282, eval_duration: 4535599000 }) + '\n')
  }
  return parts.join('')
}
