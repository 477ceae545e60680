// Problems that keep their place (the reply first, the notes out of its way): a Live capture splits nearly every frame across
// network reads, and each such frame is an info note. The reply must not be buried under them:
// errors and warnings come first, info notes are one line per code with their count (expanded
// on demand), and the whole Problems block folds away, remembered across a reload. Driven in
// the standalone page in Debian Chromium: a Live-like capture of 39 frames, each split across
// reads, at 1280×800 and at 560 px (Reply tab); the reply's first line is inside the window.
// Saves problems-1280.png, problems-group-open.png, problems-560.png, problems-warnings.png.

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, type OpenedPage } from '../support/browser.js'
import { screenshotPath } from '../support/screenshots.js'
import { capturedRequest } from '../support/requests.js'
import { openaiChunk } from '../support/streams.js'

const chunk = (delta: object, finish: string | null = null) => openaiChunk(delta, finish, { id: 'chatcmpl-9', model: 'gpt-4o' })

/** 37 words of content (one frame each, the first with the role), then the finish and [DONE]: 39 frames. */
const WORDS = ('Moon over the lighthouse tonight: the keeper climbs the stairs, winds the lamp, and writes in the log that the sea was calm, '
  + 'the wind from the north, and the ships passed safely — 灯塔 stays lit.').split(' ')
const REPLY = WORDS.join(' ')
const FRAMES = [...WORDS.map((w, i) => chunk(i === 0 ? { role: 'assistant', content: w } : { content: ` ${w}` })), chunk({}, 'stop'), 'data: [DONE]\n\n']
const encoder = new TextEncoder()

/**
 * Every frame cut in three reads (at a third of its bytes and at two thirds, or inside 灯 where
 * it has one), 20 ms apart: what Live capture records.
 */
function liveReads(frames: readonly string[]): Array<{ data: number[]; t: number }> {
  const reads: Array<{ data: number[]; t: number }> = []
  let t = 1000
  for (const f of frames) {
    const bytes = [...encoder.encode(f)]
    const a = Math.floor(bytes.length / 3)
    const b = f.includes('灯') ? encoder.encode(f.slice(0, f.indexOf('灯'))).length + 1 : Math.floor((2 * bytes.length) / 3)
    for (const piece of [bytes.slice(0, a), bytes.slice(a, b), bytes.slice(b)]) reads.push({ data: piece, t: t += 20 })
  }
  return reads
}

let opened: OpenedPage
let origin: string
let page: Page
let problems: string[] = []

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`)

/** Opens the page at this size with one capture fed through the page's test hook, its reads timed, selected. */
async function open(size: { width: number; height: number }, id: string, frames: readonly string[]): Promise<void> {
  await page.setViewportSize(size)
  await page.goto(`${origin}/?deltascope-test`)
  await page.locator('[data-testid="request-row"]').first().waitFor()
  const request = capturedRequest({ id, requestBody: '{"stream":true}', startedAt: Date.now() + 1000, source: 'live' })
  await page.evaluate(([request, reads]) => {
    const hook = (window as unknown as { __deltascope: { feed(e: unknown[]): void } }).__deltascope
    const { id, startedAt } = request
    hook.feed([
      { type: 'request', request },
      ...reads.map((r) => ({ type: 'chunk', id, data: new Uint8Array(r.data), t: startedAt + r.t })),
      { type: 'finished', id, t: startedAt + 5000 },
      { type: 'select', id },
    ])
  }, [request, liveReads(frames)] as const)
  await expect.poll(() => page.locator('[data-testid="request-row"][aria-selected="true"]').getAttribute('data-id')).toBe(id)
}

/** The debugger's notes, which come once the body ended (the Reply pane shown). */
async function problemsShown(head: string): Promise<void> {
  await expect.poll(() => byTestId('problems-head').textContent()).toBe(head)
}

/** The reply's first line is on screen without scrolling: its box starts inside the window, and its first 20 px too. */
async function replyFirstLineVisible(): Promise<void> {
  const content = byTestId('reply-content')
  expect(await content.textContent()).toBe(REPLY)
  const box = (await content.boundingBox())!
  const { width, height } = page.viewportSize()!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(width)
  expect(box.y).toBeGreaterThanOrEqual(0)
  expect(box.y + 20).toBeLessThanOrEqual(height)
  // and nothing above it was scrolled away to get there
  expect(await page.locator('.ds-reply-pane').evaluate((el) => el.scrollTop)).toBe(0)
}

beforeAll(async () => {
  opened = await openPage({ path: '/?deltascope-test', viewport: { width: 1280, height: 800 } })
  ;({ page, origin, problems } = opened)
}, 120_000)

afterAll(async () => {
  await opened?.close()
})

describe('Problems keep their place under a Live capture of 39 frames, each split across reads', () => {
  it('1280×800: no warning, so the info notes are one line per code with their count, and the reply\'s first line is in the window', async () => {
    await open({ width: 1280, height: 800 }, 'live-39', FRAMES)
    await problemsShown('problems · none, only notes · 40 notes')
    expect(await byTestId('diagnostic').count()).toBe(0)
    expect(await page.locator('[data-testid="note-group"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-code'), e.querySelector('[data-testid="note-group-label"]')!.textContent])))
      .toEqual([
        ['frame-split-across-reads', '39 frames arrived split across network reads'],
        ['utf8-split-across-reads', '1 frame with a character split across network reads'],
      ])
    await replyFirstLineVisible()
    await page.screenshot({ path: screenshotPath('problems-1280.png') })
  })

  it('a group opens on demand: its notes, each with its frame', async () => {
    const group = page.locator('[data-testid="note-group"][data-code="utf8-split-across-reads"]')
    await group.getByRole('button').click()
    expect(await group.getByRole('button').first().getAttribute('aria-expanded')).toBe('true')
    const notes = group.locator('[data-testid="diagnostic"]')
    expect(await notes.count()).toBe(1)
    expect(await notes.first().getAttribute('data-frame')).toBe('34')
    await page.screenshot({ path: screenshotPath('problems-group-open.png') })
    await group.getByRole('button').first().click()
    expect(await group.locator('[data-testid="diagnostic"]').count()).toBe(0)
  })

  it('the whole block folds away, and stays folded after a reload', async () => {
    const toggle = byTestId('problems-toggle')
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    expect(await page.locator('[data-testid="note-group"]').count()).toBe(0)
    expect(await page.evaluate(() => localStorage.getItem('deltascope.problems.open'))).toBe('false')
    await open({ width: 1280, height: 800 }, 'live-39', FRAMES)
    await problemsShown('problems · none, only notes · 40 notes')
    expect(await byTestId('problems-toggle').getAttribute('aria-expanded')).toBe('false')
    await byTestId('problems-toggle').click()
    expect(await page.locator('[data-testid="note-group"]').count()).toBe(2)
    expect(await page.evaluate(() => localStorage.getItem('deltascope.problems.open'))).toBe('true')
  })

  it('560 px, Reply tab: the reply\'s first line is in the window', async () => {
    await open({ width: 560, height: 800 }, 'live-39', FRAMES)
    await page.getByRole('tab', { name: 'Reply' }).click()
    await problemsShown('problems · none, only notes · 40 notes')
    await replyFirstLineVisible()
    await page.screenshot({ path: screenshotPath('problems-560.png') })
  })

  it('warnings and errors come first, each on its line; the notes stay grouped after them', async () => {
    // content after the finish reason (a warning) and a frame with no `data:` (a warning)
    const frames = [...FRAMES.slice(0, 10), FRAMES[10]!.replace(/^data: /, ''), ...FRAMES.slice(11, -2), chunk({}, 'stop'), chunk({ content: '!' }), 'data: [DONE]\n\n']
    await open({ width: 1280, height: 800 }, 'live-warnings', frames)
    await problemsShown('problems · 2 warnings and errors · 40 notes')
    const rows = await page.locator('[data-testid="diagnostics"] > li').evaluateAll((els) => els.map((e) => [e.getAttribute('data-testid'), e.getAttribute('data-code')]))
    expect(rows).toEqual([
      ['diagnostic', 'missing-data-prefix'],
      ['diagnostic', 'content-after-finish'],
      ['note-group', 'frame-split-across-reads'],
      ['note-group', 'utf8-split-across-reads'],
    ])
    await page.screenshot({ path: screenshotPath('problems-warnings.png') })
    expect(problems).toEqual([])
  })
})
