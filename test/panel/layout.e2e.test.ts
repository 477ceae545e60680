// The panel at every width, in the standalone page, built, served from 127.0.0.1 and driven in
// Debian Chromium: at 420, 560 and 1280 px the reply is visible and nothing scrolls sideways;
// narrow panels switch frames and reply by tabs named Frames and Reply and put the request
// list above; wide ones split frames and reply with a splitter that is remembered across a
// reload; the export actions become an Export menu when they do not fit; a long URL is cut in
// the middle with the whole of it on hover. Saves layout-420.png, layout-560.png, layout-1280.png.

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, type OpenedPage } from '../support/browser.js'
import { screenshotPath } from '../support/screenshots.js'
import { capturedRequest } from '../support/requests.js'
import { openaiChunk } from '../support/streams.js'

const chunk = (delta: object, finish: string | null = null) => openaiChunk(delta, finish, { id: 'chatcmpl-9', model: 'gpt-4o' })
const REPLY = 'A narrow panel still shows the whole reply, wrapped to its width, with nothing cut off at the right.'
const BODY = REPLY.split(' ').map((w, i) => chunk(i === 0 ? { role: 'assistant', content: w } : { content: ` ${w}` })).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n'
const LONG_URL = 'https://gateway.internal.example.com/openai/deployments/gpt-4o-2024-08-06-eastus2/chat/completions?api-version=2024-10-21&trace=req-7f3a'

let opened: OpenedPage
let origin: string
let page: Page
let problems: string[] = []

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`)

/** Opens the page at `width`, with one stream fed through the page's test hook, selected. */
async function open(width: number): Promise<void> {
  await page.setViewportSize({ width, height: 860 })
  await page.goto(`${origin}/?deltascope-test`)
  await page.locator('[data-testid="request-row"]').first().waitFor()
  const request = capturedRequest({ id: 'wide-url', url: LONG_URL, requestBody: '{"stream":true}', startedAt: Date.now() + 1000, source: 'live' })
  await page.evaluate(([request, body]) => {
    const hook = (window as unknown as { __deltascope: { feed(e: unknown[]): void } }).__deltascope
    hook.feed([{ type: 'request', request }, { type: 'chunk', id: 'wide-url', data: body, t: null }, { type: 'finished', id: 'wide-url', t: null }, { type: 'select', id: 'wide-url' }])
  }, [request, BODY] as const)
  await expect.poll(() => page.locator('[data-testid="request-row"][aria-selected="true"]').getAttribute('data-id')).toBe('wide-url')
}

/** Nothing scrolls sideways: the document, and every pane of the panel, fit the window. */
async function fits(): Promise<{ scrollWidth: number; innerWidth: number; overflowing: string[] }> {
  return page.evaluate(() => {
    const overflowing: string[] = []
    for (const el of document.querySelectorAll<HTMLElement>('.ds-pane, .ds-sel-head, .ds-toolbar, .ds-reply, .ds-search, .pg-input')) {
      const r = el.getBoundingClientRect()
      if (r.width > 0 && (r.right > innerWidth + 0.5 || r.left < -0.5)) overflowing.push(`${el.className} at ${Math.round(r.left)}–${Math.round(r.right)}`)
      if (el.matches('.ds-reply, .ds-sel-head, .ds-toolbar') && el.scrollWidth > el.clientWidth + 1) overflowing.push(`${el.className} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`)
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth, overflowing }
  })
}

/** The reply's text is on screen, whole: inside the window and not clipped by its pane. */
async function replyVisible(): Promise<void> {
  const content = byTestId('reply-content')
  expect(await content.textContent()).toBe(REPLY)
  const box = (await content.boundingBox())!
  const width = page.viewportSize()!.width
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(width)
  expect(box.width).toBeGreaterThan(150)
  expect(await content.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
  expect(await byTestId('finish-reason').isVisible()).toBe(true)
  expect(await byTestId('scrub-label').isVisible()).toBe(true)
}

beforeAll(async () => {
  opened = await openPage({ path: '/?deltascope-test', viewport: { width: 1280, height: 860 } })
  ;({ page, origin, problems } = opened)
}, 120_000)

afterAll(async () => {
  await opened?.close()
})

describe('the panel at every width', () => {
  for (const width of [420, 560]) {
    it(`${width} px: the list above, Frames and Reply as tabs, the reply whole, nothing scrolls sideways`, async () => {
      await open(width)
      expect(await page.locator('.ds-root').getAttribute('data-layout')).toBe('stacked')
      expect(await page.locator('.ds-selection').getAttribute('data-panes')).toBe('tabs')
      const tabs = page.getByRole('tab')
      expect(await tabs.allTextContents()).toEqual(['Frames 21', 'Reply'])
      expect(await byTestId('pane-tab-frames').getAttribute('aria-selected')).toBe('true')
      expect(await byTestId('frame-list').isVisible()).toBe(true)
      expect(await byTestId('reply').count()).toBe(0)
      // the request list sits above the selection, both the panel's full width
      const list = (await byTestId('request-list').boundingBox())!
      const frames = (await byTestId('frame-list').boundingBox())!
      expect(list.y + list.height).toBeLessThanOrEqual(frames.y)
      expect(Math.round(frames.width)).toBe(width)
      await page.getByRole('tab', { name: 'Reply' }).click()
      expect(await byTestId('pane-tab-reply').getAttribute('aria-selected')).toBe('true')
      await replyVisible()
      const f = await fits()
      expect(f.scrollWidth).toBeLessThanOrEqual(f.innerWidth)
      expect(f.overflowing).toEqual([])
      // the export actions do not fit: one Export menu with all of them
      expect(await byTestId('export-bar').getAttribute('data-collapsed')).toBe('true')
      await byTestId('export-menu').click()
      expect(await page.locator('[data-testid="export-actions"] [role="menuitem"]').allTextContents())
        .toEqual(['Fixture', 'Test', 'HAR', 'Raw body', 'JSON Lines', 'Copy as cURL'])
      await page.keyboard.press('Escape')
      expect(await byTestId('export-actions').count()).toBe(0)
      await page.screenshot({ path: screenshotPath(`layout-${width}.png`) })
      // a click on the reply finds the frame: the Frames tab shows it, selected and open
      const box = (await byTestId('reply-content').boundingBox())!
      await page.mouse.click(box.x + 3, box.y + 8)
      await expect.poll(() => byTestId('pane-tab-frames').getAttribute('aria-selected')).toBe('true')
      expect(await page.locator('[data-testid="frame-row"][aria-selected="true"]').getAttribute('data-seq')).toBe('0')
      expect(await byTestId('frame-detail').isVisible()).toBe(true)
    })
  }

  it('1280 px: the list beside, frames and reply side by side, the export buttons, nothing scrolls sideways', async () => {
    await open(1280)
    expect(await page.locator('.ds-root').getAttribute('data-layout')).toBe('side')
    expect(await page.locator('.ds-selection').getAttribute('data-panes')).toBe('split')
    expect(await page.getByRole('tab').count()).toBe(0)
    await replyVisible()
    const frames = (await byTestId('frame-list').boundingBox())!
    const reply = (await byTestId('reply').boundingBox())!
    expect(frames.x + frames.width).toBeLessThanOrEqual(reply.x)
    const f = await fits()
    expect(f.scrollWidth).toBeLessThanOrEqual(f.innerWidth)
    expect(f.overflowing).toEqual([])
    expect(await byTestId('export-bar').getAttribute('data-collapsed')).toBe(null)
    expect(await page.locator('[data-testid="export-bar"] button').allTextContents()).toEqual(['Fixture', 'Test', 'HAR', 'Raw body', 'JSON Lines', 'Copy as cURL', 'Redact ▾'])
    await page.screenshot({ path: screenshotPath('layout-1280.png') })
  })

  it('the long URL is cut in the middle: its start and its query show, the whole of it on hover', async () => {
    const url = byTestId('selection-url')
    const parts = () => url.evaluate((el) => [...el.children].map((c) => ({
      text: c.textContent, clipped: (c as HTMLElement).scrollWidth > (c as HTMLElement).clientWidth, right: c.getBoundingClientRect().right,
    })))
    expect(await url.getAttribute('title')).toBe(LONG_URL)
    expect(await url.textContent()).toBe(LONG_URL)
    // 1280 px: it fits whole
    expect((await parts()).map((p) => p.clipped)).toEqual([false, false])
    await page.setViewportSize({ width: 560, height: 860 })
    // polled: the cut follows the resize once the page has laid it out again
    await expect.poll(async () => (await parts()).map((p) => p.clipped)).toEqual([true, false])
    const [, tail] = await parts()
    // the query (up to half as long again as the tail) stays whole, the start ends in …
    expect(tail!.text).toBe('?api-version=2024-10-21&trace=req-7f3a')
    expect(tail!.right).toBeLessThanOrEqual(560)
    const row = page.locator('[data-testid="request-row"][data-id="wide-url"] .ds-mid-tail')
    expect(await row.textContent()).toBe('&trace=req-7f3a')
    expect(await row.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= 560)).toBe(true)
  })

  it('the splitter between frames and reply moves with the mouse and the keyboard, and is remembered after a reload', async () => {
    await open(1280)
    const split = byTestId('split-frames')
    const at = async () => Number(await split.getAttribute('aria-valuenow'))
    const frames = async () => Math.round((await byTestId('frame-list').boundingBox())!.width)
    const start = await at()
    // the frames' width is the splitter's value
    expect(await frames()).toBe(start)
    const box = (await split.boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + 200)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width / 2 - 150, box.y + 200, { steps: 5 })
    await page.mouse.up()
    expect(await at()).toBe(start - 150)
    expect(await frames()).toBe(start - 150)
    await split.focus()
    await page.keyboard.press('ArrowRight')
    expect(await at()).toBe(start - 134)
    await page.keyboard.press('Shift+ArrowLeft')
    expect(await at()).toBe(start - 294)
    await open(1280)
    expect(await at()).toBe(start - 294)
    expect(await frames()).toBe(start - 294)
    // the request list's splitter too
    const listSplit = byTestId('split-requests')
    const listWidth = Number(await listSplit.getAttribute('aria-valuenow'))
    const grip = (await listSplit.boundingBox())!
    await page.mouse.move(grip.x + grip.width / 2, grip.y + 300)
    await page.mouse.down()
    await page.mouse.move(grip.x + grip.width / 2 + 60, grip.y + 300, { steps: 4 })
    await page.mouse.up()
    expect(await page.evaluate(() => localStorage.getItem('deltascope.layout.listWidth'))).toBe(String(listWidth + 60))
    expect(Math.round((await byTestId('request-list').boundingBox())!.width)).toBe(listWidth + 60)
    await page.evaluate(() => localStorage.clear())
    expect(problems).toEqual([])
  })
})
