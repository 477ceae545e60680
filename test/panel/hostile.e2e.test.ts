// Hostile input in the browser: the standalone page, built, served from 127.0.0.1 and driven in
// Debian Chromium, given what an attacker's stream holds.
//   - A 1 MB body of 100,000 broken frames (the old panel: 2.2 GB of renderer heap, frozen 3.6 s,
//     the Problems list laying out every entry with each frame's raw text). Now: the exact
//     count, a bounded number of DOM rows, merged in slices in the store's worker, the heaps
//     of the page and of its worker measured after a GC (CDP HeapProfiler.collectGarbage, then
//     Performance.getMetrics JSHeapUsedSize and the worker's Runtime.getHeapUsage) under a
//     generous bound that the old behaviour breaks tenfold. No timing is asserted.
//   - A reply and tool arguments full of bidi controls, zero-width characters, U+2028 and C0/C1
//     controls: each shown as a visible mark with its legend, and a copy of the text is exact.
//   - The user's redaction list, edited in the Redact popover, kept in localStorage, applied
//     to the fixture export.

import { readFileSync } from 'node:fs'
import type { CDPSession, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, workerHeapsMB, type OpenedPage } from '../support/browser.js'
import { DONE, openaiChunk } from '../support/streams.js'

let opened: OpenedPage
let page: Page
let cdp: CDPSession

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`)

/** Feeds one request through the page's test hook (in the page: the body can be built there) and selects it. */
async function feed(id: string, body: string | { broken: number }, headers: Array<{ name: string; value: string }> = []): Promise<void> {
  await page.evaluate(([id, body, headers]) => {
    // "data: {b" + a blank line: 10 bytes, a frame that fails to parse
    const data = typeof body === 'string' ? body : 'data: {b\n\n'.repeat(body.broken)
    const hook = (window as unknown as { __deltascope: { feed(e: unknown[]): void } }).__deltascope
    const request = {
      id, method: 'POST', url: `https://api.openai.com/v1/chat/completions?case=${id}`, status: 200, requestHeaders: headers, responseHeaders: [],
      requestBody: '{"model":"gpt-4o","stream":true}', contentType: 'text/event-stream', startedAt: Date.UTC(2025, 0, 2, 3, 4, 5), source: 'live',
    }
    hook.feed([{ type: 'request', request }, { type: 'chunk', id, data, t: null }, { type: 'finished', id, t: null }, { type: 'select', id }])
  }, [id, body, headers] as const)
  await expect.poll(() => page.locator('[data-testid="request-row"][aria-selected="true"]').getAttribute('data-id')).toBe(id)
}

/** The JS heaps in MB after a full garbage collection: the page's and its store worker's. */
async function heapAfterGc(): Promise<{ page: number; worker: number }> {
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.collectGarbage')
  const { metrics } = await cdp.send('Performance.getMetrics')
  return { page: metrics.find((m) => m.name === 'JSHeapUsedSize')!.value / 2 ** 20, worker: await workerHeapsMB(page) }
}

beforeAll(async () => {
  opened = await openPage({ path: '/?deltascope-test', clipboard: true })
  page = opened.page
  cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  await page.evaluate(() => localStorage.removeItem('deltascope.redaction'))
}, 120_000)

afterAll(async () => {
  await opened?.close()
})

describe('a 1 MB body of 100,000 broken frames', () => {
  const N = 100_000
  /** What the animation frames saw while it was merged: the merge percentages painted, the longest gap. */
  let painted = { steps: -1, longest: -1 }

  it('the Problems list shows the exact count, lays out a bounded number of rows, and the heap stays bounded', async () => {
    const before = await heapAfterGc()
    // animation frames keep coming while it is merged: count the merge percentages painted on the way
    await page.evaluate(() => {
      const seen = new Set<string>()
      let last = performance.now()
      let longest = 0
      const w = window as unknown as { __hostile: { seen: Set<string>; longest: () => number; stop: () => void } }
      let running = true
      const tick = () => {
        const now = performance.now()
        longest = Math.max(longest, now - last)
        last = now
        const merging = document.querySelector('[data-testid="merging"]')?.textContent
        if (merging) seen.add(merging)
        if (running) requestAnimationFrame(tick)
      }
      requestAnimationFrame(tick)
      w.__hostile = { seen, longest: () => longest, stop: () => { running = false } }
    })
    await feed('broken', { broken: N })
    await expect.poll(() => byTestId('frame-count').textContent(), { timeout: 120_000 }).toBe(String(N))
    await expect.poll(() => page.locator('[data-testid="merging"]').count(), { timeout: 120_000 }).toBe(0)
    painted = await page.evaluate(() => {
      const w = window as unknown as { __hostile: { seen: Set<string>; longest: () => number; stop: () => void } }
      w.__hostile.stop()
      return { steps: w.__hostile.seen.size, longest: Math.round(w.__hostile.longest()) }
    })

    // the exact count: the row's broken count, and the Problems list's "N more"
    const row = page.locator('[data-testid="request-row"][data-id="broken"]')
    expect(await row.locator('[data-testid="request-broken"]').textContent()).toBe('100000 broken')
    const frameErrors = byTestId('frame-errors')
    expect(await frameErrors.locator('[data-testid="frame-error"]').count()).toBe(50)
    expect(await frameErrors.locator('li').last().textContent()).toBe('… 99,950 more: show 150 more')
    // windowed: the frame list and every Problems list lay out a bounded number of rows
    expect(await page.locator('[data-testid="frame-row"]').count()).toBeLessThan(200)
    expect(await page.locator('[data-testid="diagnostic"]').count()).toBeLessThanOrEqual(50)
    expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(5000)
    // a click on a Problems entry still selects its frame
    await frameErrors.locator('[data-testid="frame-error"][data-frame="7"] button').click()
    await expect.poll(() => page.locator('[data-testid="frame-row"][aria-selected="true"]').getAttribute('data-seq')).toBe('7')

    const after = await heapAfterGc()
    const mb = (h: { page: number; worker: number }) => `${h.page.toFixed(1)} MB on the page + ${h.worker.toFixed(1)} MB in the worker`
    console.log(`100,000 broken frames (1 MB): JS heap ${mb(before)} before, ${mb(after)} after (GC'd); merge painted ${painted.steps} progress steps, longest gap between animation frames ${painted.longest} ms`)
    // the store's worker is running and holds the body: its heap is measured, not missed
    expect(after.worker).toBeGreaterThan(before.worker)
    // the old panel took 2.2 GB here; 1 MB of body has no business holding more than 400 MB
    expect(after.page + after.worker).toBeLessThan(400)
    expect(opened.problems).toEqual([])
  }, 240_000)

  // the merge runs in the store's worker, in slices chosen by their cost: the page shows its progress
  it('the page keeps painting while it merges: the merge progress is shown in more than one step', () => {
    expect(painted.steps).toBeGreaterThan(1)
  })
})

describe('a bidi-laden reply', () => {
  const content = 'Open invoice_\u202Efdp.exe now\u200B.\u2028Bell\u0007 and NEL\u0085 end\u2066x\u2069'
  const args = '{"cmd":"rm -rf /tmp/\u202E; ls\u200D"}'
  const body = [
    { role: 'assistant', content },
    { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'run', arguments: args } }] },
  ].map((delta) => openaiChunk(delta)).join('') + DONE

  it('every control, bidi and invisible character is a visible mark with its legend; the DOM text is exact', async () => {
    await feed('bidi', body)
    const reply = byTestId('reply-content')
    await expect.poll(() => reply.textContent()).toBe(content)
    const marks = await reply.locator('[data-testid="invisible-char"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-mark'), e.getAttribute('title')]))
    expect(marks).toEqual([
      ['RLO', 'U+202E RIGHT-TO-LEFT OVERRIDE: reorders how the text around it is displayed'],
      ['ZWSP', 'U+200B ZERO WIDTH SPACE: invisible in most views'],
      ['LS', 'U+2028 LINE SEPARATOR: invisible in most views'],
      ['␇', 'U+0007 control character'],
      ['U+0085', 'U+0085 C1 control character'],
      ['LRI', 'U+2066 LEFT-TO-RIGHT ISOLATE: reorders how the text around it is displayed'],
      ['PDI', 'U+2069 POP DIRECTIONAL ISOLATE: reorders how the text around it is displayed'],
    ])
    // the override reorders nothing: "fdp.exe" is drawn after the mark, left to right
    const order = await reply.evaluate((el) => {
      const range = document.createRange()
      const text = [...el.querySelectorAll('*'), el].flatMap((n) => [...n.childNodes]).find((n) => n.nodeType === 3 && n.textContent!.startsWith('fdp.exe'))!
      range.setStart(text, 0); range.setEnd(text, 1)
      const f = range.getBoundingClientRect().left
      range.setStart(text, 4); range.setEnd(text, 5)
      return { f, e: range.getBoundingClientRect().left }
    })
    expect(order.f).toBeLessThan(order.e)
    const tool = byTestId('tool-call')
    expect(await tool.locator('[data-testid="invisible-char"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-mark')))).toEqual(['RLO', 'ZWJ'])
  })

  it('copying the reply (selection, Ctrl+C) gives the exact text, marks excluded', async () => {
    const reply = byTestId('reply-content')
    await reply.evaluate((el) => {
      const range = document.createRange()
      range.selectNodeContents(el)
      const sel = getSelection()!
      sel.removeAllRanges()
      sel.addRange(range)
    })
    await page.keyboard.press('Control+C')
    // U+0000-free text: the clipboard keeps every character, the controls included
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(content)
  })
})

describe("the user's redaction list in the page", () => {
  it('edited in the Redact popover, kept in localStorage, applied to the fixture; an unusable entry is said', async () => {
    await feed('tenant', 'data: {"choices":[{"index":0,"delta":{"content":"for tenant-7f3a9 only"}}]}\n\ndata: [DONE]\n\n', [
      { name: 'X-Tenant', value: 'acme' }, { name: 'Authorization', value: 'Bearer sk-test-123' },
    ])
    await byTestId('redaction-settings').click()
    await byTestId('redaction-names').fill('X-Tenant')
    await byTestId('redaction-values').fill('tenant-7f3a9\nab')
    await byTestId('redaction-save').click()
    expect(await byTestId('redaction-problem').allTextContents()).toEqual(['value "ab": shorter than 4 characters: it would be found everywhere'])
    await byTestId('redaction-values').fill('tenant-7f3a9')
    await byTestId('redaction-save').click()
    await expect.poll(() => byTestId('redaction-popover').count()).toBe(0)
    expect(await byTestId('redaction-settings').textContent()).toBe('Redact +2 ▾')
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('deltascope.redaction')))!)).toEqual({
      version: 1, names: ['X-Tenant'], values: ['tenant-7f3a9'], patterns: [],
    })

    const [download] = await Promise.all([page.waitForEvent('download'), byTestId('export-fixture').click()])
    const fixture = JSON.parse(readFileSync((await download.path())!, 'utf8'))
    expect(fixture.request.headers).toEqual([{ name: 'X-Tenant', value: '[REDACTED]' }, { name: 'Authorization', value: '[REDACTED]' }])
    expect(fixture.expected.choices[0].content).toBe('for [REDACTED] only')
    expect(fixture.meta.redactions).toEqual([
      { where: 'request header', name: 'X-Tenant' },
      { where: 'request header', name: 'Authorization' },
      { where: 'response body', name: 'listed value 1' },
    ])
    await expect.poll(() => page.locator('.ds-status[role="status"]').textContent()).toBe(
      'Saved api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.deltascope.json (redacted: request header X-Tenant; request header Authorization; response body listed value 1)',
    )

    // a new page loads the list kept
    await page.reload()
    await feed('tenant2', 'data: [DONE]\n\n')
    await expect.poll(() => byTestId('redaction-settings').textContent()).toBe('Redact +2 ▾')
    await byTestId('redaction-settings').click()
    expect(await byTestId('redaction-values').inputValue()).toBe('tenant-7f3a9')
    await page.keyboard.press('Escape')
    await expect.poll(() => byTestId('redaction-popover').count()).toBe(0)
  })
})
