// The bundled samples (samples/*), inlined at build time: the page needs no request to show them.

const found = import.meta.glob<string>('../../../samples/*.{sse,ndjson,jsonl,txt}', { query: '?raw', import: 'default', eager: true })

export interface Sample {
  name: string
  text: string
}

const FALLBACK: Sample = {
  name: 'hello.sse',
  text: 'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Hello"}}]}\n\n'
    + 'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" world"},"finish_reason":"stop"}]}\n\n'
    + 'data: [DONE]\n\n',
}

/** Sorted by name; the sample opened first leads. */
export const SAMPLES: Sample[] = (() => {
  const list = Object.entries(found)
    .map(([path, text]) => ({ name: path.slice(path.lastIndexOf('/') + 1), text }))
    .sort((a, b) => a.name.localeCompare(b.name))
  return list.length > 0 ? list : [FALLBACK]
})()

/** The sample shown when the page opens: one with reasoning and tool calls if there is one. */
export const FIRST_SAMPLE: Sample =
  SAMPLES.find((s) => s.name === 'openai-chat.sse') ?? SAMPLES.find((s) => !/broken/.test(s.name)) ?? SAMPLES[0]!
