// The standalone page, built, served from 127.0.0.1 and driven in Debian Chromium:
// paste a stream, open a HAR with three streams, read the exact replies, and prove that the
// page sends nothing anywhere. Saves page.png (test/support/screenshots.ts: a temporary folder,
// or docs/screenshots with `npm run screenshots`).

import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { merge } from '../../src/index.js'
import { CHROMIUM, ensurePageBuilt, PAGE_DIST, ROOT, servePage, type ServedRequest } from '../support/browser.js'
import { screenshotPath } from '../support/screenshots.js'
import { openaiChunk } from '../support/streams.js'

/** Every request the server saw: method, path, body. */
const served: ServedRequest[] = []
const serve = () => servePage((r) => served.push(r))

// ---------------------------------------------------------------------------------- streams

const MARK = 'zq7-private-marker'

const chunk = (delta: object, finish: string | null = null) => openaiChunk(delta, finish, { id: 'chatcmpl-1', created: 1, model: 'gpt-4o' })

const PASTED = [
  ': comment before the first frame',
  '',
  chunk({ role: 'assistant', content: 'The secret ' }),
  chunk({ content: `word is ${MARK}` }),
  chunk({ content: ', and nothing leaves.' }),
  chunk({}, 'stop'),
  'data: [DONE]',
  '',
].join('\n')

const anthropic = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  'event: ping\ndata: {"type":"ping"}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Bonjour "}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"from Claude."}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":6}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
].join('')

const openai = chunk({ role: 'assistant', content: 'Hello' }) + chunk({ content: ' from GPT' }) + 'data: {"broken": \n\n' + chunk({ content: '!' }, 'stop') + 'data: [DONE]\n\n'

const ollama = [
  { model: 'llama3.2', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: 'Hallo' }, done: false },
  { model: 'llama3.2', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: ' aus Ollama' }, done: false },
  { model: 'llama3.2', created_at: '2025-01-01T00:00:01Z', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', eval_count: 3 },
].map((o) => JSON.stringify(o)).join('\n') + '\n'

function harEntry(url: string, mimeType: string, text: string, started: string) {
  return {
    startedDateTime: started,
    time: 120,
    request: {
      method: 'POST', url, httpVersion: 'HTTP/1.1', cookies: [], queryString: [], headersSize: -1, bodySize: 20,
      headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Authorization', value: 'Bearer sk-test-123' }],
      postData: { mimeType: 'application/json', text: '{"stream":true}' },
    },
    response: {
      status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], redirectURL: '', headersSize: -1, bodySize: text.length,
      headers: [{ name: 'Content-Type', value: mimeType }],
      content: { size: text.length, mimeType, text },
    },
    cache: {},
    timings: { send: 0, wait: 10, receive: 110 },
  }
}

const HAR = {
  log: {
    version: '1.2',
    creator: { name: 'WebInspector', version: '537.36' },
    pages: [],
    entries: [
      harEntry('https://api.openai.com/v1/chat/completions', 'text/event-stream; charset=utf-8', openai, '2025-06-01T10:00:00.000Z'),
      harEntry('https://example.com/app.js', 'application/javascript', 'console.log(1)', '2025-06-01T10:00:00.500Z'),
      harEntry('https://api.anthropic.com/v1/messages', 'text/event-stream; charset=utf-8', anthropic, '2025-06-01T10:00:01.000Z'),
      harEntry('http://localhost:11434/api/chat', 'application/x-ndjson', ollama, '2025-06-01T10:00:02.000Z'),
    ],
  },
}

// ---------------------------------------------------------------------------------- helpers

let server: Server
let origin: string
let browser: Browser
let page: Page
const pageRequests: Array<{ url: string; method: string; postData: string | null }> = []
const problems: string[] = []

const text = (testid: string) => page.locator(`[data-testid="${testid}"]`)
/** The fixture the export test saved, pasted back by the next test. */
let lastFixture = ''
const selectedRow = () => page.locator('[data-testid="request-row"][aria-selected="true"]')

async function replyContent(): Promise<string[]> {
  return page.locator('[data-testid="reply-content"]').allTextContents()
}

beforeAll(async () => {
  ensurePageBuilt()
  server = await serve()
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  page = await browser.newPage({ viewport: { width: 1400, height: 860 } })
  page.on('request', (r) => pageRequests.push({ url: r.url(), method: r.method(), postData: r.postData() }))
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`) })
  await page.goto(`${origin}/`)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((ok) => (server ? server.close(ok) : ok(undefined)))
})

describe('standalone page', () => {
  it('opens with a sample loaded', async () => {
    await expect.poll(() => page.locator('[data-testid="request-row"]').count()).toBe(1)
    const name = (await selectedRow().getAttribute('title')) ?? ''
    const sample = readFileSync(join(ROOT, 'samples', name), 'utf8')
    const expected = merge(sample, { url: name, contentType: name.endsWith('.sse') ? 'text/event-stream' : 'application/x-ndjson' })
    await expect.poll(replyContent).toEqual(expected.choices.map((c) => c.content))
    expect(await text('frame-count').textContent()).toBe(String(expected.frameCount))
  })

  it('rebuilds a pasted stream: exact reply, frame count, finish reason', async () => {
    await page.getByLabel('Paste a stream').fill(PASTED)
    await expect.poll(() => selectedRow().getAttribute('title')).toBe('pasted text')
    await expect.poll(() => selectedRow().getAttribute('data-state')).toBe('finished')
    expect(await replyContent()).toEqual([`The secret word is ${MARK}, and nothing leaves.`])
    expect(await text('frame-count').textContent()).toBe('5')
    expect(await text('finish-reason').textContent()).toBe('stop')
    // the comment is listed, dimmed, but is not a frame
    expect(await page.locator('[data-testid="frame-entry"][data-kind="comment"]').count()).toBe(1)
    expect(await page.locator('[data-testid="frame-row"]').count()).toBe(5)
    expect(await page.locator('[data-testid="frame-row"][data-kind="done"]').count()).toBe(1)
  })

  it('links frames and reply both ways, and rewinds the reply to a frame', async () => {
    const selectedFrame = () => page.locator('[data-testid="frame-row"][aria-selected="true"]').getAttribute('data-seq')
    const marked = () => page.locator('[data-testid="reply-content"] mark').textContent()
    // click a frame: the reply as it stood after it, its contribution marked
    await page.locator('[data-testid="frame-row"][data-seq="1"]').click()
    await expect.poll(replyContent).toEqual([`The secret word is ${MARK}`])
    await expect.poll(marked).toBe(`word is ${MARK}`)
    expect(await text('scrub-label').textContent()).toBe('Reply after frame 1 of 4')
    // keyboard: arrows move, the reply follows
    await page.locator('[data-testid="frame-list"]').focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(selectedFrame).toBe('2')
    await expect.poll(replyContent).toEqual([`The secret word is ${MARK}, and nothing leaves.`])
    await page.getByRole('button', { name: 'Latest' }).click()
    await expect.poll(() => text('scrub-label').textContent()).toBe('Latest reply (5 frames)')
    // click the reply text: the frame that produced it is selected
    const box = (await page.locator('[data-testid="reply-content"]').boundingBox())!
    await page.mouse.click(box.x + 4, box.y + box.height / 2)
    await expect.poll(selectedFrame).toBe('0')
    await expect.poll(marked).toBe('The secret ')
    expect(await replyContent()).toEqual([`The secret word is ${MARK}, and nothing leaves.`])
  })

  it('lists every streaming entry of a HAR and shows each exact reply', async () => {
    const before = await page.locator('[data-testid="request-row"]').count()
    await page.locator('[data-testid="file-input"]').setInputFiles({
      name: 'capture.har', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(HAR)),
    })
    await expect.poll(() => page.locator('[data-testid="request-row"]').count()).toBe(before + 3)
    // listed by start time, as in the Network panel: the HAR's entries (June 2025) come before
    // the sample and the paste read today, in their own start order
    const rows = page.locator('[data-testid="request-row"]')
    const expected = [
      { url: 'https://api.openai.com/v1/chat/completions', content: ['Hello from GPT!'], frames: '5', finish: 'stop', broken: 1 },
      { url: 'https://api.anthropic.com/v1/messages', content: ['Bonjour from Claude.'], frames: '8', finish: 'end_turn', broken: 0 },
      { url: 'http://localhost:11434/api/chat', content: ['Hallo aus Ollama'], frames: '3', finish: 'stop', broken: 0 },
    ]
    for (const [i, want] of expected.entries()) {
      const row = rows.nth(i)
      expect(await row.getAttribute('title')).toBe(want.url)
      await row.click()
      await expect.poll(() => row.getAttribute('aria-selected')).toBe('true')
      expect(await replyContent()).toEqual(want.content)
      expect(await text('frame-count').textContent()).toBe(want.frames)
      expect(await text('finish-reason').textContent()).toBe(want.finish)
      expect(await page.locator('[data-testid="frame-row"][data-broken="true"]').count()).toBe(want.broken)
      expect(await text('frame-error').count()).toBe(want.broken)
    }
    // the broken frame of the OpenAI stream stands out with the parser's message
    await rows.nth(0).click()
    const broken = page.locator('[data-testid="frame-row"][data-broken="true"]')
    expect(await broken.getAttribute('data-seq')).toBe('2')
    expect(await broken.textContent()).toMatch(/line 5, position \d+: /)
  })

  it('exports the selected stream: fixture and HAR, credentials redacted unless asked for', async () => {
    await page.locator('[data-testid="request-row"][title="https://api.openai.com/v1/chat/completions"]').click()
    const save = async (button: string) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-testid="${button}"]`).click()])
      return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') }
    }
    const fixture = await save('export-fixture')
    expect(fixture.name).toMatch(/^api\.openai\.com_.*\.deltascope\.json$/)
    const doc = JSON.parse(fixture.text)
    expect(doc.format).toBe('deltascope-fixture')
    expect(doc.expected.choices[0].content).toBe('Hello from GPT!')
    expect(doc.request.headers).toContainEqual({ name: 'Authorization', value: '[REDACTED]' })
    await page.locator('[data-testid="include-credentials"]').check()
    const har = JSON.parse((await save('export-har')).text)
    expect(har.log.entries[0].request.headers).toContainEqual({ name: 'Authorization', value: 'Bearer sk-test-123' })
    await page.locator('[data-testid="include-credentials"]').uncheck()
    const raw = await save('export-raw')
    expect(raw.name.endsWith('.sse')).toBe(true)
    expect(raw.text).toBe(openai)
    await page.locator('[data-testid="export-curl"]').click()
    await expect.poll(() => page.locator('.ds-status').textContent()).toBe('Copied the cURL command (redacted: request header Authorization)')
    lastFixture = fixture.text
  })

  it('checks a pasted fixture against the reply rebuilt here (in the store), and says when they differ', async () => {
    const notes = () => page.locator('[data-testid="note"]').allTextContents()
    const differs = (url: string) => expect.arrayContaining([expect.stringContaining(`${url}: the fixture's expected reply differs from the reply rebuilt here`)])
    const doc = JSON.parse(lastFixture)
    await page.getByLabel('Paste a stream').fill(lastFixture)
    await expect.poll(() => selectedRow().getAttribute('data-state')).toBe('finished')
    await expect.poll(replyContent).toEqual(['Hello from GPT!'])
    await new Promise((r) => setTimeout(r, 300))
    expect(await notes()).not.toEqual(differs(doc.request.url))
    doc.expected.choices[0].content = 'Hello from an older build!'
    await page.getByLabel('Paste a stream').fill(JSON.stringify(doc))
    await expect.poll(notes).toEqual(differs(doc.request.url))
    await page.getByLabel('Paste a stream').fill('')
  })

  it('sends nothing anywhere: only its own files were fetched, and the CSP blocks requests', async () => {
    const allowed = /^\/(index\.html)?$|^\/assets\/[\w.-]+\.(js|css)$/
    for (const r of pageRequests) {
      const url = new URL(r.url)
      // the store's worker, started from a Blob the page's own script made (CSP worker-src blob:)
      if (url.protocol === 'blob:') {
        expect(r.url.startsWith(`blob:${origin}/`), r.url).toBe(true)
        continue
      }
      expect(url.origin === origin || url.protocol === 'data:', r.url).toBe(true)
      expect(r.method).toBe('GET')
      expect(url.pathname, r.url).toMatch(allowed)
      expect(r.url.includes(MARK) || (r.postData ?? '').includes(MARK)).toBe(false)
    }
    for (const s of served) expect(s.url + s.body).not.toContain(MARK)
    // the page itself could not send it even if it tried: connect-src 'none'
    const attempt = await page.evaluate(async (url) => {
      try {
        await fetch(url, { method: 'POST', body: 'probe' })
        return 'sent'
      } catch {
        return 'blocked'
      }
    }, `${origin}/probe`)
    expect(attempt).toBe('blocked')
    expect(served.some((s) => s.url.startsWith('/probe'))).toBe(false)
    // the only violation is the probe's; no style or script was refused
    expect(problems.filter((p) => !/\/probe/.test(p))).toEqual([])
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("connect-src 'none'")
  })

  it('lays out the first 50 of many tool calls, and more on demand', async () => {
    const calls = Array.from({ length: 130 }, (_, i) => chunk({ tool_calls: [{ index: i, id: `call_${i}`, type: 'function', function: { name: `f${i}`, arguments: `{"n":${i}}` } }] }))
    await page.getByLabel('Paste a stream').fill(chunk({ role: 'assistant' }) + calls.join('') + chunk({}, 'tool_calls') + 'data: [DONE]\n\n')
    await expect.poll(() => selectedRow().getAttribute('data-state')).toBe('finished')
    const names = () => page.locator('[data-testid="tool-name"]').allTextContents()
    await expect.poll(names).toEqual(Array.from({ length: 50 }, (_, i) => `f${i}`))
    expect(await text('more-tool-calls').textContent()).toBe('… 80 more tool calls: show 80 more')
    // past the limit, the call the selected frame wrote into is laid out too (frame 101 wrote call 100)
    await page.locator('[data-testid="frame-list"]').focus()
    await page.keyboard.press('End')
    for (let i = 0; i < 31; i++) await page.keyboard.press('ArrowUp')
    await expect.poll(() => page.locator('[data-testid="frame-row"][aria-selected="true"]').getAttribute('data-seq')).toBe('101')
    await expect.poll(names).toEqual([...Array.from({ length: 50 }, (_, i) => `f${i}`), 'f100'])
    // the latest reply: the frame stays selected, its call stays laid out, once
    await page.getByRole('button', { name: 'Latest' }).click()
    await expect.poll(() => text('scrub-label').textContent()).toBe('Latest reply (133 frames)')
    expect(await names()).toEqual([...Array.from({ length: 50 }, (_, i) => `f${i}`), 'f100'])
    await text('more-tool-calls').click()
    await expect.poll(names).toEqual(Array.from({ length: 130 }, (_, i) => `f${i}`))
    expect(await text('more-tool-calls').count()).toBe(0)
    await page.getByLabel('Paste a stream').fill('')
  })

  it('filters with Ctrl+F, hides pings and [DONE], moves with the keyboard', async () => {
    // Ctrl+F: the frame search of the selected request; again: the request filter
    await page.keyboard.press('Control+f')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('frame-search')
    await page.keyboard.press('Control+f')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('filter')
    await page.keyboard.type('anthropic')
    await expect.poll(() => page.locator('[data-testid="request-row"]').count()).toBe(1)
    await page.locator('[data-testid="request-row"]').click()
    await expect.poll(() => page.locator('[data-testid="frame-row"]').count()).toBe(8)
    await page.locator('[data-testid="hide-dimmed"]').check()
    // the ping and nothing else: Anthropic ends with message_stop, not [DONE]
    await expect.poll(() => page.locator('[data-testid="frame-row"]').count()).toBe(7)
    expect(await page.locator('[data-testid="frame-row"][data-seq="2"]').count()).toBe(0)
    await page.locator('[data-testid="hide-dimmed"]').uncheck()
    await page.locator('[data-testid="filter"]').fill('')
    await expect.poll(() => page.locator('[data-testid="request-row"]').count()).toBeGreaterThan(3)
    // arrows in the request list
    await page.locator('[data-testid="request-list"]').focus()
    const before = await selectedRow().getAttribute('data-id')
    await page.keyboard.press('ArrowUp')
    await expect.poll(() => selectedRow().getAttribute('data-id')).not.toBe(before)
  })

  it('stays responsive while a 20 MB paste is merged, and shows progress', async () => {
    const result = await page.evaluate(async () => {
      const parts: string[] = []
      let size = 0
      let n = 0
      while (size < 20 * 1024 * 1024) {
        const line = `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"w${n} "},"finish_reason":null}]}\n\n`
        parts.push(line)
        size += line.length
        n++
      }
      parts.push('data: [DONE]\n\n')
      const big = parts.join('')
      const area = document.querySelector<HTMLTextAreaElement>('[data-testid="paste"]')!
      // measure the longest gap between animation frames while it loads
      let last = performance.now()
      let longest = 0
      let running = true
      // the frame counts the page showed while it was loading
      const shown = new Set<string>()
      const tick = () => {
        const now = performance.now()
        longest = Math.max(longest, now - last)
        last = now
        shown.add(document.querySelector('[data-testid="frame-count"]')?.textContent ?? '')
        if (running) requestAnimationFrame(tick)
      }
      requestAnimationFrame(tick)
      // the progress element may come and go between two polls: watched as the DOM changes
      let sawProgress = false
      const watcher = new MutationObserver(() => { if (document.querySelector('[data-testid="progress"]')) sawProgress = true })
      watcher.observe(document.body, { childList: true, subtree: true })
      const started = performance.now()
      const data = new DataTransfer()
      data.setData('text/plain', big)
      area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
      while (performance.now() - started < 30_000) {
        await new Promise((r) => setTimeout(r, 50))
        const progress = document.querySelector('[data-testid="progress"]')
        if (progress) sawProgress = true
        const count = document.querySelector('[data-testid="frame-count"]')?.textContent
        if (!progress && count === String(n + 1)) break
      }
      running = false
      watcher.disconnect()
      return {
        frames: n + 1, count: document.querySelector('[data-testid="frame-count"]')?.textContent, longest, sawProgress,
        ms: performance.now() - started, kept: area.value.length, updates: shown.size,
      }
    })
    expect(result.count).toBe(String(result.frames))
    expect(result.sawProgress).toBe(true)
    // the 20 MB are not kept in the text box
    expect(result.kept).toBe(0)
    console.log(`20 MB paste: ${result.frames} frames in ${Math.round(result.ms)} ms, ${result.updates} repaints with a new frame count, longest gap between animation frames ${Math.round(result.longest)} ms`)
    // the page kept painting while the worker merged: the frame count grew in steps, not only at the end...
    expect(result.updates).toBeGreaterThan(4)
    // ...and never froze (the bound is loose: CI machines are slow and shared)
    expect(result.longest).toBeLessThan(2000)
    // the paste replaced the earlier pasted stream
    expect(await page.locator('[data-testid="request-row"][title="pasted text"]').count()).toBe(1)
  }, 60_000)

  it('saves a screenshot of the page', async () => {
    await page.locator('[data-testid="request-row"][title="openai-chat.sse"]').click()
    await page.locator('[data-testid="frame-row"][data-seq="12"]').click()
    await page.getByRole('button', { name: 'Latest' }).click()
    await expect.poll(() => page.locator('[data-testid="tool-arguments"] mark').count()).toBe(1)
    await page.screenshot({ path: screenshotPath('page.png') })
  })

  it('works from file:// as well', async () => {
    const local = await browser.newPage()
    const errors: string[] = []
    local.on('pageerror', (e) => errors.push(e.message))
    await local.goto(`file://${join(PAGE_DIST, 'index.html')}`)
    await expect.poll(() => local.locator('[data-testid="reply-content"]').count()).toBeGreaterThan(0)
    expect(errors).toEqual([])
    await local.close()
  })
})
