// The debugger in the standalone page, built, served from 127.0.0.1 and driven in Debian
// Chromium: a fixture with its network chunks and times is pasted; a client's result with a
// dropped frame is pasted into "Compare with my client" and the first difference's frame is
// selected with its cause in words; a glued frame is marked in the frame list and listed in
// the Problems; the timing strip shows the recorded times; bidi and invisible characters are
// shown as marks while the text copied stays exact. Saves debugger.png (and a narrow one).

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureToJson, toFixture } from '../../src/exchange/fixture.js'
import type { CapturedChunk } from '../../src/exchange/types.js'
import { openPage, type OpenedPage } from '../support/browser.js'
import { screenshotPath } from '../support/screenshots.js'
import { capturedRequest } from '../support/requests.js'
import { openaiChunk } from '../support/streams.js'

const T0 = Date.UTC(2026, 0, 5, 9, 30, 0)

const chunk = (delta: object, finish: string | null = null) => openaiChunk(delta, finish, { id: 'chatcmpl-7', created: 1, model: 'gpt-4o' })

/** Seven frames; frame 3 arrives split across two network reads (a client that parses each read on its own drops it). */
const FRAMES = [
  chunk({ role: 'assistant', content: 'The invoice is ' }),
  chunk({ content: 'attached as ' }),
  chunk({ content: 'invoice_\u202Efdp.exe' }),
  chunk({ content: ', due on Friday' }),
  chunk({ content: '.' }),
  chunk({}, 'stop'),
  'data: [DONE]\n\n',
]

function fixtureText(): string {
  const reads: CapturedChunk[] = []
  const times = [180, 260, 330, 2100, 2150, 2160, 2170, 2180]
  let i = 0
  for (const [n, frame] of FRAMES.entries()) {
    if (n === 3) {
      // frame 3 split across reads 3 and 4
      reads.push({ data: frame.slice(0, 30), t: T0 + times[i++]! })
      reads.push({ data: frame.slice(30), t: T0 + times[i++]! })
    } else reads.push({ data: frame, t: T0 + times[i++]! })
  }
  const request = capturedRequest({
    id: 'x', requestHeaders: [{ name: 'Authorization', value: 'Bearer sk-live-secret' }], responseHeaders: [{ name: 'Content-Type', value: 'text/event-stream' }],
    requestBody: '{"model":"gpt-4o","stream":true}', startedAt: T0, source: 'live',
  })
  return fixtureToJson(toFixture({ request, chunks: reads }, { exportedAt: '2026-01-05T09:31:00.000Z' }))
}

/** Two frames glued by a lost blank line, then the rest. */
const GLUED = chunk({ role: 'assistant', content: 'Hi' }).slice(0, -1) + chunk({ content: ' there' }) + chunk({}, 'stop') + 'data: [DONE]\n\n'

let opened: OpenedPage
let page: Page
let problems: string[] = []

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`)
const selectedRow = () => page.locator('[data-testid="request-row"][aria-selected="true"]')
const selectedFrame = () => page.locator('[data-testid="frame-row"][aria-selected="true"]').getAttribute('data-seq')

async function paste(text: string): Promise<void> {
  await page.getByLabel('Paste a stream').fill(text)
  await expect.poll(() => selectedRow().getAttribute('data-state')).toBe('finished')
}

beforeAll(async () => {
  opened = await openPage({ viewport: { width: 1280, height: 900 }, clipboard: true })
  ;({ page, problems } = opened)
}, 120_000)

afterAll(async () => {
  await opened?.close()
})

describe('the debugger in the page', () => {
  it('a pasted fixture keeps its times: the timing strip shows first byte, first content and the end, and the stall', async () => {
    await paste(fixtureText())
    await expect.poll(() => byTestId('timing-ttfb').textContent()).toBe('first byte 180 ms')
    expect(await byTestId('timing-content').textContent()).toBe('first content 180 ms')
    expect(await byTestId('timing-end').textContent()).toBe('end 2.18 s')
    expect(await byTestId('timing-stalls').textContent()).toBe('1 stall')
    expect(await page.locator('[data-testid="gap-stall"]').getAttribute('data-seq')).toBe('3')
  })

  it('bidi and invisible characters are drawn as marks; the text itself is unchanged', async () => {
    const content = byTestId('reply-content')
    expect(await content.textContent()).toBe('The invoice is attached as invoice_\u202Efdp.exe, due on Friday.')
    const mark = content.locator('[data-testid="invisible-char"]')
    expect(await mark.getAttribute('data-mark')).toBe('RLO')
    expect(await mark.getAttribute('title')).toBe('U+202E RIGHT-TO-LEFT OVERRIDE: reorders how the text around it is displayed')
    // what the eye reads: the mark, and the file name in its real order
    expect(await content.evaluate((el) => (el as HTMLElement).innerText)).toBe('The invoice is attached as invoice_\u202Efdp.exe, due on Friday.')
    const shown = await content.evaluate((el) => {
      const range = document.createRange()
      range.selectNodeContents(el)
      return [...range.getClientRects()].length
    })
    expect(shown).toBeGreaterThan(0)
    // the override is confined to its own mark: the text after it reads left to right
    const order = await content.evaluate((el) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      const xs: Array<[string, number]> = []
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const t = n.textContent ?? ''
        const i = t.indexOf('fdp')
        if (i < 0) continue
        const r = document.createRange()
        r.setStart(n, i)
        r.setEnd(n, i + 1)
        xs.push(['f', r.getBoundingClientRect().left])
        r.setStart(n, i + 2)
        r.setEnd(n, i + 3)
        xs.push(['p', r.getBoundingClientRect().left])
      }
      return xs
    })
    expect(order.length).toBe(2)
    expect(order[0]![1]).toBeLessThan(order[1]![1])
  })

  it('compare with a client that dropped the frame split across reads: the cause, its frame selected, the field marked', async () => {
    await byTestId('compare').locator('summary').click()
    await byTestId('compare-input').fill('The invoice is attached as invoice_\u202Efdp.exe.')
    await byTestId('compare-run').click()
    await expect.poll(() => byTestId('compare-verdict').textContent()).toBe("1 difference from your client's text.")
    const first = byTestId('compare-first')
    expect(await first.getAttribute('data-field')).toBe('choices[0].content')
    expect(await first.getAttribute('data-cause')).toBe('dropped-frames')
    expect(await first.getAttribute('data-frame')).toBe('3')
    expect(await byTestId('compare-message').textContent()).toContain('frame 3 arrived split across reads 3 and 4')
    expect(await byTestId('compare-cause').textContent()).toContain('dropped-frames: The whole text of one or more frames is missing')
    await expect.poll(selectedFrame).toBe('3')
    // the frame list scrolled to it and the frame detail shows its raw text
    await expect.poll(() => page.locator('[data-testid="frame-row"][data-seq="3"]').isVisible()).toBe(true)
    expect(await byTestId('frame-raw').textContent()).toBe(FRAMES[3]!.slice(0, -1))
    expect(await page.locator('[data-field="content"][data-differs="true"]').count()).toBe(1)
    expect(await page.locator('[data-testid="compare-field"][data-equal="false"]').allTextContents()).toEqual(['✗ choices[0].content'])
    await page.screenshot({ path: screenshotPath('debugger.png') })
  })

  it('a glued frame is marked in the frame list and listed in the Problems with its symptom; a click selects it', async () => {
    await paste(GLUED)
    await expect.poll(() => page.locator('[data-testid="frame-row"][data-problem="error"]').getAttribute('data-seq')).toBe('0')
    const d = page.locator('[data-testid="diagnostic"][data-code="glued-frames"]')
    expect(await d.getAttribute('data-frame')).toBe('0')
    expect((await d.locator('[data-testid="diagnostic-symptom"]').textContent())!.length).toBeGreaterThan(20)
    await page.locator('[data-testid="frame-row"][data-seq="2"]').click()
    await d.getByRole('button', { name: 'frame 0' }).click()
    await expect.poll(selectedFrame).toBe('0')
    expect(await page.locator('[data-testid="timing"]').textContent()).toBe('times unknown: the input has no chunk times (export a fixture with Live capture on)')
  })

  it('reads well narrow: a screenshot at 560 px', async () => {
    await page.setViewportSize({ width: 560, height: 900 })
    await page.screenshot({ path: screenshotPath('debugger-narrow.png') })
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(problems).toEqual([])
  })
})
