// Issue 33 in the browser: what froze the standalone page, now cut or laid out in steps. The
// behaviour is asserted, never the time (bench/heavy.ts measures that: `npm run bench:ui -- --heavy`).
//   - A 10 MB frame (a data: URL in the reply): its detail shows the raw text cut with the
//     exact count of characters hidden; copy all copies exactly the whole raw text; show all
//     ends with exactly the whole text in the page; the JSON tree's string value is cut the
//     same way and its copy all gives the string itself.
//   - A 1,000,000-character reply: show all ends with exactly the whole text in the reply's
//     element (real text nodes: find-in-page and a selection reach it), copy all gives it.
//   - A HAR of 10,000 streaming entries given to the file input: exactly 10,000 rows listed.

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bigHar, dataUrl, openaiStream } from '../../bench/heavy.js'
import { DISPLAY_CUT } from '../../panel/long-text.js'
import { WINDOW_STEP } from '../../panel/components/TracedText.js'
import { openPage, type OpenedPage } from '../support/browser.js'

let opened: OpenedPage
let page: Page

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`)
const clipboard = () => page.evaluate(() => navigator.clipboard.readText())

async function feed(id: string, body: string): Promise<void> {
  await page.evaluate(([id, data]) => {
    const hook = (window as unknown as { __deltascope: { feed(e: unknown[]): void } }).__deltascope
    const request = { id, method: 'POST', url: `https://api.openai.com/v1/chat/completions?case=${id}`, status: 200, requestHeaders: [], responseHeaders: [], requestBody: null, contentType: 'text/event-stream', startedAt: Date.UTC(2025, 0, 2, 3, 4, 5), source: 'live' }
    hook.feed([{ type: 'request', request }, { type: 'chunk', id, data, t: null }, { type: 'finished', id, t: null }, { type: 'select', id }])
  }, [id, body] as const)
  // (waitForFunction, not expect.poll: this runs in a beforeAll too)
  await page.waitForFunction((id) => (document.querySelector('[data-testid="request-row"][aria-selected="true"]') as HTMLElement | null)?.dataset['id'] === id &&
    document.querySelector('[data-testid=request-state]')?.textContent === 'finished', id, { timeout: 60_000, polling: 250 })
}

beforeAll(async () => {
  opened = await openPage({ path: '/?deltascope-test', clipboard: true, viewport: { width: 1400, height: 860 } })
  page = opened.page
})
afterAll(async () => {
  expect(opened.problems).toEqual([])
  await opened.close()
})

describe('a 10 MB frame', () => {
  const big = dataUrl(10 * 1048576)
  const body = openaiStream(['Here is the image: ', big, ' — done.'])
  // frame 2 carries the data: URL (0: the role, 1: the text before it)
  const raw = body.split('\n\n')[2]! + '\n' // a frame's raw text: its lines, each with its line break

  beforeAll(async () => { await feed('ten-mb', body) })

  it('is cut in the reply, with copy all of the whole text', async () => {
    const text = `Here is the image: ${big} — done.`
    await expect.poll(() => page.evaluate(() => document.querySelector('[data-testid=reply-content]')?.textContent?.slice(0, 30))).toBe(text.slice(0, 30))
    const more = await page.locator('.ds-reply [data-testid=text-show-all]').first().textContent()
    // the window is laid out in steps, one a frame: counted once the last is in
    await expect.poll(() => page.evaluate(() => document.querySelector('[data-testid=reply-content] [data-testid=laying-out]') === null)).toBe(true)
    const shown = await page.evaluate(() => document.querySelector('[data-testid=reply-content]')!.textContent!.length)
    // in steps of WINDOW_STEP characters (no line break to cut after in a data: URL)
    expect(await page.locator('[data-testid=reply-content] .ds-step').count()).toBe(Math.ceil(shown / WINDOW_STEP))
    expect(Number(/([\d,]+) more characters/.exec(more ?? '')![1]!.replace(/,/g, ''))).toBe(text.length - shown)
    await page.locator('.ds-reply [data-testid=text-copy-all]').first().click()
    await expect.poll(async () => (await clipboard()) === text, { timeout: 30_000 }).toBe(true)
  }, 120_000)

  it("detail: the raw text cut with the exact count hidden, copy all and show all give it whole", async () => {
    await page.locator('[data-testid=frame-row][data-seq="2"]').click()
    const cut = page.locator('[data-testid=frame-raw] [data-testid=long-cut]')
    await cut.waitFor({ timeout: 30_000 })
    expect(Number(await cut.getAttribute('data-hidden'))).toBe(raw.length - DISPLAY_CUT)
    expect(await cut.textContent()).toContain(`${(raw.length - DISPLAY_CUT).toLocaleString('en')} more characters`)
    // the head shown is the raw text's first DISPLAY_CUT characters, exactly
    const head = await page.evaluate(() => {
      const pre = document.querySelector('[data-testid=frame-raw]')!
      return [...pre.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('')
    })
    expect(head).toBe(raw.slice(0, DISPLAY_CUT))

    // the JSON tree's string value: cut too; its copy all gives the string itself
    const json = page.locator('[data-testid=json-long-string]')
    // choices[0].delta is below the levels open at first
    for (let i = 0; i < 6 && (await json.count()) === 0; i++) await page.locator('[data-testid=frame-detail] [data-testid=json-tree] button[aria-label=Expand]').first().click()
    expect(Number(await json.locator('[data-testid=long-cut]').getAttribute('data-hidden'))).toBe(JSON.stringify(big).length - DISPLAY_CUT)
    await json.locator('[data-testid=long-copy-all]').click()
    await expect.poll(async () => (await clipboard()) === big, { timeout: 30_000 }).toBe(true)

    await cut.locator('[data-testid=long-copy-all]').click()
    await expect.poll(async () => (await clipboard()) === raw, { timeout: 30_000 }).toBe(true)

    await cut.locator('[data-testid=long-show-all]').click()
    await expect.poll(() => page.evaluate((want) => document.querySelector('[data-testid=frame-raw]')?.textContent === want, raw), { timeout: 90_000, interval: 500 }).toBe(true)
    expect(await page.locator('[data-testid=frame-raw] [data-testid=laying-out]').count()).toBe(0)
  }, 150_000)
})

describe('a 1,000,000-character reply', () => {
  it('show all ends with exactly the whole text, in real text nodes; copy all gives it', async () => {
    let text = ''
    for (let i = 0; text.length < 1_000_000; i++) text += `Sentence ${i}, with \u202Ea bidi override\u202C and words.${i % 9 === 8 ? '\n' : ' '}`
    text = text.slice(0, 1_000_000)
    const parts: string[] = []
    for (let i = 0; i < text.length; i += 400) parts.push(text.slice(i, i + 400))
    await feed('one-million', openaiStream(parts))
    const content = () => page.evaluate(() => document.querySelector('[data-testid=reply-content]')?.textContent ?? '')
    await expect.poll(async () => (await content()).length > 0).toBe(true)
    expect((await content()).length).toBeLessThan(text.length)
    await page.locator('.ds-reply [data-testid=text-show-all]').first().click()
    await expect.poll(async () => (await content()) === text, { timeout: 60_000, interval: 250 }).toBe(true)
    // laid out in steps, each its own block of text
    expect(await page.locator('[data-testid=reply-content] .ds-step').count()).toBeGreaterThan(1)
    // the invisible characters still marked
    expect(await page.locator('[data-testid=reply-content] [data-testid=invisible-char]').count()).toBeGreaterThan(100)
    await page.locator('.ds-reply [data-testid=text-copy-all]').first().click()
    await expect.poll(async () => (await clipboard()) === text, { timeout: 30_000 }).toBe(true)
  }, 120_000)
})

describe('a 6 MB stream file opened in the page', () => {
  it('is read by the worker into reused buffers and merged exactly: the reply, and a frame read back from the file', async () => {
    const parts: string[] = []
    for (let i = 0; parts.length < 40_000; i++) parts.push(`été ${i} 天气 ☀ `)
    const body = openaiStream(parts)
    expect(body.length).toBeGreaterThan(6_000_000)
    const dir = mkdtempSync(join(tmpdir(), 'ds-file-'))
    const file = join(dir, 'six-mb.sse')
    writeFileSync(file, body)
    await page.locator('[data-testid=file-input]').setInputFiles(file)
    await page.locator('[data-testid=request-row][data-id^=import][data-state=finished]').last().click()
    await expect.poll(() => byTestId('frame-count').textContent(), { timeout: 60_000 }).toBe(String(parts.length + 3))
    await page.locator('.ds-reply [data-testid=text-copy-all]').first().click()
    await expect.poll(async () => (await clipboard()) === parts.join(''), { timeout: 30_000 }).toBe(true)
    // frame 2's bytes were let go once merged: read back from the file
    await page.locator('[data-testid=frame-row][data-seq="2"]').click()
    await expect.poll(() => page.evaluate(() => document.querySelector('[data-testid=frame-raw]')?.textContent ?? '')).toBe(body.split('\n\n')[2]! + '\n')
  }, 120_000)
})

describe('a HAR of 10,000 streaming entries', () => {
  it('ends with exactly 10,000 rows listed, all merged', async () => {
    const before = Number(await byTestId('request-count').textContent())
    // files opened before this one are listed as imports too
    const imports = (state: string) => page.evaluate((state) => document.querySelectorAll(`[data-testid=request-row][data-id^=import]${state}`).length, state)
    const importsBefore = await imports('')
    const dir = mkdtempSync(join(tmpdir(), 'ds-har-'))
    const file = join(dir, 'ten-thousand.har')
    writeFileSync(file, bigHar(10_000))
    await page.locator('[data-testid=file-input]').setInputFiles(file)
    await expect.poll(() => byTestId('request-count').textContent(), { timeout: 120_000, interval: 500 }).toBe(String(before + 10_000))
    await expect.poll(() => imports(''), { timeout: 120_000, interval: 500 }).toBe(importsBefore + 10_000)
    await expect.poll(() => imports('[data-state=finished]'), { timeout: 120_000, interval: 500 }).toBe(importsBefore + 10_000)
  }, 300_000)
})
