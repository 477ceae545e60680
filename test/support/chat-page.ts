// A local chat page for "Compare with the page": it streams an OpenAI chat reply whose content
// is Markdown (bold, a list, a code block, a table, a "€"), written in three pieces 80 ms
// apart, cut inside frame 2 and inside the "€" of frame 5, so the page's reader gets them as
// three reads. The page's client reads the stream one of three ways (window.ask(mode, n)):
//   correct  decodes with {stream: true}, parses across reads, renders Markdown as it streams
//   decode   decodes each read on its own: the "€" comes out as U+FFFD
//   parse    parses each read on its own: frames split across reads are dropped
// and renders the Markdown with DOM calls (a <p>, <strong>, <ul>, <pre><code> with a "Copy"
// button under it, <table>) into `#chat > div.msg.assistant > div.md`, after the question in a
// `div.msg.user`.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { body, offsetOf } from '../debug/rendered-support.js'

export { DELTAS, MARKDOWN, PAGE_TEXT } from '../debug/rendered-support.js'

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Chat</title>
<style>
  body { font: 14px sans-serif; margin: 0; padding: 16px; }
  .msg { margin: 8px 0; padding: 4px; }
  .msg.user { color: #555; }
  .md { padding: 10px; border: 1px solid #ddd; }
  table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 2px 6px; }
</style></head>
<body><main id="chat"></main>
<script>
// clicks that reach the page (the picker's click must not)
window.clicks = 0
document.addEventListener('click', () => { window.clicks++ })
function inline(parent, text) {
  const parts = text.split('**')
  parts.forEach((p, i) => {
    if (i % 2 === 1 && i < parts.length - 1) { const s = document.createElement('strong'); s.textContent = p; parent.append(s) }
    else parent.append(document.createTextNode(i % 2 === 1 ? '**' + p : p))
  })
}
function render(target, md) {
  target.replaceChildren()
  const lines = md.split('\\n')
  let para = null, list = null, table = null
  const close = () => { para = null; list = null; table = null }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (line.startsWith('\`\`\`')) {
      close()
      const pre = document.createElement('pre'); const code = document.createElement('code')
      const body = []
      for (i++; i < lines.length && !lines[i].startsWith('\`\`\`'); i++) body.push(lines[i])
      code.textContent = body.join('\\n'); pre.append(code); target.append(pre)
      // as chat pages do: a button under each code block (not the reply: Deltascope leaves it out)
      const copy = document.createElement('button'); copy.textContent = 'Copy'; target.append(copy)
      continue
    }
    if (line.trim() === '') { close(); continue }
    if (line.startsWith('- ')) {
      if (!list) { close(); list = document.createElement('ul'); target.append(list) }
      const li = document.createElement('li'); inline(li, line.slice(2)); list.append(li)
      continue
    }
    if (line.startsWith('|')) {
      if (/^\\|[-| ]+\\|$/.test(line)) continue
      if (!table) { close(); table = document.createElement('table'); target.append(table) }
      const tr = document.createElement('tr')
      for (const cell of line.split('|').slice(1, -1)) { const td = document.createElement('td'); inline(td, cell.trim()); tr.append(td) }
      table.append(tr)
      continue
    }
    if (!para) { close(); para = document.createElement('p'); target.append(para) } else para.append(document.createTextNode(' '))
    inline(para, line)
  }
}
window.ask = async (mode, n) => {
  const chat = document.getElementById('chat')
  const q = document.createElement('div'); q.className = 'msg user'; q.textContent = 'Question ' + n; chat.append(q)
  const a = document.createElement('div'); a.className = 'msg assistant'
  const md = document.createElement('div'); md.className = 'md'; a.append(md); chat.append(a)
  const res = await fetch('/v1/chat/completions?n=' + n, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"stream":true}' })
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  let buffer = '', content = '', reads = 0
  const apply = (block) => {
    const data = block.split('\\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\\n')
    if (data === '' || data === '[DONE]') return
    try { const chunk = JSON.parse(data); content += chunk.choices[0].delta.content ?? '' } catch {}
  }
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    reads++
    if (mode === 'parse') { decoder.decode(value, { stream: true }).split('\\n\\n').forEach(apply) }
    else {
      buffer += mode === 'decode' ? new TextDecoder().decode(value) : decoder.decode(value, { stream: true })
      const parts = buffer.split('\\n\\n'); buffer = parts.pop(); parts.forEach(apply)
    }
    render(md, content)
  }
  if (mode !== 'parse') { apply(buffer); render(md, content) }
  return { reads, content }
}
</script></body></html>`

/** The stream's bytes and where they are cut into writes: inside frame 2 ("sec|ond") and inside the "€" of frame 5. */
export const STREAM = new TextEncoder().encode(body())
export const CUTS = [offsetOf(STREAM, 'second', 3), offsetOf(STREAM, '€', 1)]

export interface ChatPage {
  url: string
  server: Server
  close(): Promise<void>
}

export function startChatPage(): Promise<ChatPage> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    req.resume()
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
      return
    }
    if (path !== '/v1/chat/completions') { res.writeHead(404).end(); return }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' })
    const points = [0, ...CUTS, STREAM.length]
    let i = 0
    const next = (): void => {
      if (i + 1 >= points.length) { res.end(); return }
      res.write(Buffer.from(STREAM.slice(points[i]!, points[i + 1]!)))
      i++
      setTimeout(next, 80)
    }
    next()
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    resolve({
      url, server,
      close: () => { server.closeAllConnections(); return new Promise((ok) => server.close(() => ok())) },
    })
  }))
}
