// The demo chat page: a deliberately *typical* streaming client. It splits the body on
// blank lines (or newlines for NDJSON), JSON.parses each frame and appends what it knows;
// a broken frame stops it, as it stops many real clients. Deltascope's panel shows the rest.
// Everything received is rendered with textContent only.

interface Endpoint { provider: string; endpoint: string; default: string; fixtures: string[] }

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const providerSelect = $<HTMLSelectElement>('provider')
const fixtureSelect = $<HTMLSelectElement>('fixture')
const log = $<HTMLDivElement>('log')
let endpoints: Endpoint[] = []
let controller: AbortController | null = null

async function init(): Promise<void> {
  endpoints = await (await fetch('/scenarios.json')).json()
  for (const e of endpoints) providerSelect.append(new Option(e.provider, e.provider))
  providerSelect.addEventListener('change', fillFixtures)
  fillFixtures()
  $<HTMLFormElement>('form').addEventListener('submit', (ev) => { ev.preventDefault(); void send() })
  $<HTMLButtonElement>('stop').addEventListener('click', () => controller?.abort())
}

function fillFixtures(): void {
  const e = current()
  fixtureSelect.replaceChildren(...e.fixtures.map((f) => new Option(f, f, f === e.default, f === e.default)))
}

function current(): Endpoint {
  return endpoints.find((e) => e.provider === providerSelect.value) ?? endpoints[0]!
}

function requestBody(provider: string, text: string): unknown {
  const messages = [{ role: 'user', content: text }]
  switch (provider) {
    case 'anthropic': return { model: 'claude-sonnet-4-5', max_tokens: 1024, stream: true, messages }
    case 'openai-responses': return { model: 'o4-mini', stream: true, input: text }
    case 'gemini': return { contents: [{ role: 'user', parts: [{ text }] }] }
    case 'ollama': return { model: 'qwen3', stream: true, messages }
    default: return { model: 'gpt-4o', stream: true, stream_options: { include_usage: true }, messages }
  }
}

/** Sends a message; `window.demoSend` lets tests trigger exactly this path. */
async function send(options: { provider?: string; fixture?: string; broken?: boolean; cut?: boolean; pace?: number; text?: string } = {}): Promise<string> {
  const e = options.provider ? endpoints.find((x) => x.provider === options.provider)! : current()
  const text = options.text ?? $<HTMLInputElement>('prompt').value
  const params = new URLSearchParams({
    fixture: options.fixture ?? (options.provider ? e.default : fixtureSelect.value),
    pace: String(options.pace ?? Number($<HTMLInputElement>('pace').value)),
  })
  if (options.broken ?? $<HTMLInputElement>('broken').checked) params.set('broken', '1')
  if (options.cut ?? $<HTMLInputElement>('cut').checked) params.set('cut', '1')
  bubble('user', text)
  const view = assistantBubble(e.provider)
  controller = new AbortController()
  $<HTMLButtonElement>('stop').disabled = false
  try {
    const url = e.endpoint + (e.endpoint.includes('?') ? '&' : '?') + params.toString()
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-demo-not-a-real-key', 'x-api-key': 'demo-key-123' },
      body: JSON.stringify(requestBody(e.provider, text)),
      signal: controller.signal,
    })
    await readFrames(res, e.provider === 'ollama', (json) => apply(e.provider, json, view))
    view.meta.textContent = `${e.provider} · finished`
  } catch (err) {
    view.error.textContent = `Stream failed: ${(err as Error).message}`
  } finally {
    $<HTMLButtonElement>('stop').disabled = true
    controller = null
  }
  return view.content.textContent ?? ''
}

async function readFrames(res: Response, ndjson: boolean, onJson: (json: any) => void): Promise<void> {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const separator = ndjson ? /\n/ : /\r?\n\r?\n/
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    buffer += decoder.decode(value, { stream: true })
    let m: RegExpExecArray | null
    while ((m = separator.exec(buffer))) {
      const frame = buffer.slice(0, m.index)
      buffer = buffer.slice(m.index + m[0].length)
      const data = ndjson ? frame : frame.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n')
      if (data === '' || data === '[DONE]') continue
      onJson(JSON.parse(data))
    }
  }
}

interface View { content: HTMLElement; reasoning: HTMLElement; tools: HTMLElement; meta: HTMLElement; error: HTMLElement }

function apply(provider: string, j: any, v: View): void {
  const add = (el: HTMLElement, text: unknown) => { if (typeof text === 'string') el.textContent += text }
  if (provider === 'anthropic') {
    if (j.type === 'content_block_delta') {
      add(j.delta.type === 'thinking_delta' ? v.reasoning : v.content, j.delta.text ?? j.delta.thinking)
      if (j.delta.type === 'input_json_delta') add(v.tools, j.delta.partial_json)
    }
    if (j.type === 'content_block_start' && j.content_block.type === 'tool_use') add(v.tools, `\n${j.content_block.name} `)
  } else if (provider === 'openai-responses') {
    if (j.type === 'response.output_text.delta') add(v.content, j.delta)
    if (j.type === 'response.reasoning_summary_text.delta') add(v.reasoning, j.delta)
    if (j.type === 'response.function_call_arguments.delta') add(v.tools, j.delta)
  } else if (provider === 'gemini') {
    for (const p of j.candidates?.[0]?.content?.parts ?? []) {
      if (p.functionCall) add(v.tools, `\n${p.functionCall.name} ${JSON.stringify(p.functionCall.args)}`)
      else add(p.thought ? v.reasoning : v.content, p.text)
    }
  } else if (provider === 'ollama') {
    add(v.content, j.message?.content)
    add(v.reasoning, j.message?.thinking)
    for (const t of j.message?.tool_calls ?? []) add(v.tools, `\n${t.function.name} ${JSON.stringify(t.function.arguments)}`)
  } else {
    const d = j.choices?.[0]?.delta ?? {}
    add(v.content, d.content)
    add(v.reasoning, d.reasoning_content ?? d.reasoning)
    for (const t of d.tool_calls ?? []) add(v.tools, (t.function?.name ? `\n${t.function.name} ` : '') + (t.function?.arguments ?? ''))
  }
}

function bubble(role: string, text: string): HTMLElement {
  const el = document.createElement('div')
  el.className = `msg ${role}`
  el.textContent = text
  log.append(el)
  return el
}

function assistantBubble(provider: string): View {
  const el = bubble('assistant', '')
  const meta = document.createElement('div'); meta.className = 'meta'; meta.textContent = `${provider} · streaming…`
  const details = document.createElement('details'); const summary = document.createElement('summary'); summary.textContent = 'Thinking'
  const reasoning = document.createElement('div'); details.append(summary, reasoning)
  const content = document.createElement('div'); content.className = 'content'
  const tools = document.createElement('div'); tools.className = 'tool'
  const error = document.createElement('div'); error.className = 'error'
  el.append(meta, details, content, tools, error)
  return { content, reasoning, tools, meta, error }
}

;(window as unknown as { demoSend: typeof send }).demoSend = send
void init()
