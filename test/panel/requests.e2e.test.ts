// The request list and frames as in the Network panel, in the standalone page, built, served
// from 127.0.0.1 and driven in Debian Chromium: requests by start time; incomplete streams
// marked with the reason on hover, and a cancelled stream's partial last frame incomplete, not
// broken; right-click menus on rows and frames that copy exactly; notes said once with a count,
// dismissed, cleared; a pasted body that is not a stream shown as raw text; pretty tool-call
// arguments that find their frame; columns sorted by a click on their header (aria-sort) and
// resized by dragging or the arrow keys, the widths remembered across a reload.

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUEST_COLUMNS, requestColumn } from '../../panel/request-columns.js'
import { defaultWidths } from '../../panel/store/sort.js'
import { openPage, type OpenedPage } from '../support/browser.js'
import { screenshotPath } from '../support/screenshots.js'
import { requestEvent } from '../support/requests.js'
import { openaiChunk as chat, openaiStream } from '../support/streams.js'

const WHOLE = openaiStream(['Hello', ' world'])
/** Two frames, then a third the page's abort cut short. */
const CUT = chat({ role: 'assistant', content: 'Hello' }) + chat({ content: ' wor' }) + 'data: {"id":"c","object":"chat.completion.chu'

let opened: OpenedPage
let page: Page
let base: number
let problems: string[] = []

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`)
const row = (id: string) => page.locator(`[data-testid="request-row"][data-id="${id}"]`)
const clipboard = () => page.evaluate(() => navigator.clipboard.readText())

type Ev = Record<string, unknown>
async function feed(events: Ev[]): Promise<void> {
  await page.evaluate((events) => (window as unknown as { __deltascope: { feed(e: unknown[]): void } }).__deltascope.feed(events), events)
}
const req = (id: string, startedAt: number, url = `https://api.openai.com/v1/chat/completions?r=${id}`): Ev =>
  requestEvent({ id, url, requestHeaders: [{ name: 'Authorization', value: 'Bearer sk-secret' }], requestBody: '{"stream":true}', startedAt, source: 'live' })

beforeAll(async () => {
  opened = await openPage({ path: '/?deltascope-test', clipboard: true })
  ;({ page, problems } = opened)
  // after the sample the page opens with
  base = Date.now() + 60_000
}, 120_000)

afterAll(async () => {
  await opened?.close()
})

describe('the request list', () => {
  it('is ordered by start time, not by arrival or by end', async () => {
    // arrive c, a, b; end b, c, a; started a, b, c
    await feed([
      req('c', base + 3000), req('a', base + 1000), req('b', base + 2000),
      { type: 'chunk', id: 'b', data: WHOLE, t: base + 2100 }, { type: 'finished', id: 'b', t: base + 2200 },
      { type: 'chunk', id: 'c', data: WHOLE, t: base + 3100 }, { type: 'finished', id: 'c', t: base + 3200 },
      { type: 'chunk', id: 'a', data: WHOLE, t: base + 4100 }, { type: 'finished', id: 'a', t: base + 4200 },
    ])
    await expect.poll(() => page.locator('[data-testid="request-row"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id'))))
      .toEqual(['sample1-0', 'a', 'b', 'c'])
  })

  it('marks incomplete streams with the reason on hover; a cancelled stream\'s last partial frame is incomplete, not broken', async () => {
    await feed([
      req('cancelled', base + 5000), { type: 'chunk', id: 'cancelled', data: CUT, t: base + 5100 }, { type: 'cancelled', id: 'cancelled', t: base + 5200, reason: 'the page aborted the fetch' },
      req('cut', base + 6000), { type: 'chunk', id: 'cut', data: chat({ role: 'assistant', content: 'Hello' }), t: base + 6100 }, { type: 'finished', id: 'cut', t: base + 6200 },
    ])
    await expect.poll(() => row('cut').getAttribute('data-state')).toBe('finished')
    expect(await page.locator('[data-testid="request-incomplete"]').count()).toBe(2)
    expect(await row('a').locator('[data-testid="request-incomplete"]').count()).toBe(0)
    expect(await row('cancelled').locator('[data-testid="request-incomplete"]').getAttribute('title'))
      .toBe("Incomplete: cancelled (the page aborted the fetch) before the stream's terminal event; frame 2 is cut short")
    expect(await row('cut').locator('[data-testid="request-incomplete"]').getAttribute('title'))
      .toBe("Incomplete: no terminal event: the body ended before the provider's end marker ([DONE], message_stop, response.completed, done:true, a finish reason); it may have been cut")
    // the cancelled stream: 3 frames, none counted broken; the last one reads "incomplete"
    expect(await row('cancelled').locator('[data-testid="request-frames"]').textContent()).toBe('3')
    expect(await row('cancelled').locator('[data-testid="request-broken"]').count()).toBe(0)
    await row('cancelled').click()
    const last = page.locator('[data-testid="frame-row"][data-seq="2"]')
    // the selection shows once the store (in its worker) has taken it
    await expect.poll(() => last.getAttribute('data-incomplete')).toBe('true')
    expect(await last.getAttribute('data-broken')).toBe(null)
    expect(await last.locator('.kind').textContent()).toBe('incomplete')
    expect(await last.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(await page.locator('[data-testid="frame-row"][data-seq="1"]').evaluate((el) => getComputedStyle(el).backgroundColor))
    expect(await byTestId('frame-error').count()).toBe(0)
    expect(await byTestId('reply-content').textContent()).toBe('Hello wor')
    await last.click()
    expect(await byTestId('frame-detail-incomplete').textContent()).toBe('Incomplete: the page cancelled the stream while this frame was arriving, so its data stops where the stream did.')
    expect(await byTestId('frame-detail-error').count()).toBe(0)
    await page.screenshot({ path: screenshotPath('incomplete.png') })
  })
})

describe('right-click menus', () => {
  it('on a frame: copy the raw frame, its data, the reply', async () => {
    await row('a').click()
    const frame = page.locator('[data-testid="frame-row"][data-seq="1"]')
    await frame.click({ button: 'right' })
    const menu = byTestId('context-menu')
    expect(await menu.getAttribute('aria-label')).toBe('Frame 1')
    expect(await menu.locator('[role="menuitem"]').allTextContents()).toEqual(['Copy raw frame', 'Copy data', 'Copy as cURL', 'Copy reply', 'Copy reply as JSON', 'Export…'])
    // focus is in the menu: the keyboard works it
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe('copy-raw')
    await page.keyboard.press('Enter')
    await expect.poll(clipboard).toBe(chat({ content: ' world' }).slice(0, -1))
    expect(await menu.count()).toBe(0)
    await frame.click({ button: 'right' })
    await menu.locator('[data-action="copy-data"]').click()
    await expect.poll(clipboard).toBe(JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: ' world' }, finish_reason: null }] }))
    await frame.click({ button: 'right' })
    await menu.locator('[data-action="copy-reply"]').click()
    await expect.poll(clipboard).toBe('Hello world')
    expect(await page.locator('.ds-toolbar .ds-status').textContent()).toBe('Copied the reply')
  })

  it('on a request row: copy the URL and the cURL command (credentials redacted), Export… saves', async () => {
    await row('b').click({ button: 'right' })
    const menu = byTestId('context-menu')
    expect(await menu.getAttribute('aria-label')).toBe('Request /v1/chat/completions?r=b')
    expect(await menu.locator('[role="menuitem"]').allTextContents()).toEqual(['Copy URL', 'Copy as cURL', 'Copy reply', 'Copy reply as JSON', 'Export…'])
    await expect.poll(() => row('b').getAttribute('aria-selected')).toBe('true') // the store's answer: a round trip to its worker
    await menu.locator('[data-action="copy-url"]').click()
    await expect.poll(clipboard).toBe('https://api.openai.com/v1/chat/completions?r=b')
    await row('b').click({ button: 'right' })
    await menu.locator('[data-action="copy-curl"]').click()
    await expect.poll(clipboard).toMatch(/^curl /)
    const curl = await clipboard()
    expect(curl).toContain("'https://api.openai.com/v1/chat/completions?r=b'")
    expect(curl).not.toContain('sk-secret')
    await row('b').click({ button: 'right' })
    await menu.locator('[data-action="export"]').click()
    expect(await menu.locator('[role="menuitem"]').allTextContents()).toEqual(['Fixture', 'Test', 'HAR', 'Raw body', 'JSON Lines', 'Copy as cURL'])
    const [download] = await Promise.all([page.waitForEvent('download'), menu.locator('[data-action="export-raw"]').click()])
    expect(download.suggestedFilename()).toMatch(/^api\.openai\.com_.*\.sse$/)
    // Escape closes a menu, a click elsewhere too
    await row('b').click({ button: 'right' })
    await page.keyboard.press('Escape')
    expect(await menu.count()).toBe(0)
    // focus goes back to the list the menu was opened from, where the keyboard opens it again
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('request-list')
    await page.keyboard.press('Shift+F10')
    expect(await menu.getAttribute('aria-label')).toBe('Request /v1/chat/completions?r=b')
    await page.keyboard.press('Escape')
    await row('b').click({ button: 'right' })
    await page.mouse.click(640, 700)
    await expect.poll(() => menu.count()).toBe(0)
  })
})

describe('notes, empty states, pretty arguments', () => {
  it('the same note is said once with a count; dismissed; Clear removes notes and requests', async () => {
    await feed(Array.from({ length: 8 }, () => ({ type: 'note', level: 'warning', message: 'Live capture stopped: the debugger was detached' })))
    await feed([{ type: 'note', level: 'info', message: 'another note' }])
    const notes = page.locator('[data-testid="note"]')
    await expect.poll(() => notes.count()).toBe(2)
    expect(await notes.first().locator('.ds-note-text').textContent()).toBe('Live capture stopped: the debugger was detached')
    expect(await notes.first().locator('[data-testid="note-count"]').textContent()).toBe('×8')
    await notes.nth(1).getByRole('button', { name: 'Dismiss' }).click()
    await expect.poll(() => notes.count()).toBe(1)
    await byTestId('clear').click()
    await expect.poll(() => notes.count()).toBe(0)
    expect(await page.locator('[data-testid="request-row"]').count()).toBe(0)
  })

  it('a pasted body that is not a stream: says what was done and shows its raw text', async () => {
    await page.getByLabel('Paste a stream').fill('<html><body>502 Bad Gateway</body></html>')
    await expect.poll(() => page.locator('[data-testid="request-row"][aria-selected="true"]').getAttribute('data-state')).toBe('finished')
    await expect.poll(() => byTestId('unread-raw').textContent()).toBe('<html><body>502 Bad Gateway</body></html>')
    expect(await byTestId('unread-body').locator('p').first().textContent())
      .toBe('Not read as a stream: this body is not SSE, NDJSON or a JSON array, so it has no frames and no reply. Its raw text is below (41 B); pick a transport above to read it anyway.')
    expect(await byTestId('reply-empty').textContent()).toBe('No reply: the body was not read as a stream (its raw text is under Frames).')
    expect(await byTestId('import-warnings').textContent())
      .toBe('not SSE, NDJSON or a JSON array (the first line is "<html><body>502 Bad Gateway</body></html>"): listed with its raw text (pick a transport to read it anyway)')
    expect(await page.locator('[data-testid="request-row"][aria-selected="true"] [data-testid="request-incomplete"]').count()).toBe(0)
  })

  it('a click on pretty tool-call arguments finds the frame that sent them, and the pretty view marks it', async () => {
    await page.getByLabel('Sample').selectOption('openai-chat.sse')
    await expect.poll(() => page.locator('[data-testid="request-row"][aria-selected="true"]').getAttribute('data-state')).toBe('finished')
    const pretty = byTestId('tool-arguments-pretty')
    expect(await pretty.textContent()).toBe('{\n  "city": "Paris",\n  "date": "tomorrow",\n  "unit": "celsius"\n}')
    const at = await pretty.evaluate((el) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = (n.textContent ?? '').indexOf('Paris')
        if (i < 0) continue
        const r = document.createRange()
        r.setStart(n, i + 2)
        r.setEnd(n, i + 3)
        const b = r.getBoundingClientRect()
        return { x: b.left + b.width / 2, y: b.top + b.height / 2 }
      }
      return null
    })
    await page.mouse.click(at!.x, at!.y)
    await expect.poll(() => page.locator('[data-testid="frame-row"][aria-selected="true"]').getAttribute('data-seq')).toBe('12')
    // still pretty, the frame's part marked where it sits
    expect(await pretty.locator('mark').allTextContents()).toEqual([': "Paris"'])
    expect(await byTestId('tool-arguments').count()).toBe(0)
    expect(problems).toEqual([])
  })
})

describe('sortable and resizable columns', () => {
  const order = () => page.locator('[data-testid="request-row"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')))
  const column = (key: string) => page.locator(`[data-testid="request-column"][data-key="${key}"]`)
  const sorts = () => page.locator('[data-testid="request-column"]').evaluateAll((cols) => Object.fromEntries(cols.map((c) => [c.getAttribute('data-key'), c.getAttribute('aria-sort')])))

  it('a click on a header sorts by it, a second reverses it, a third goes back to start order; aria-sort says which', async () => {
    await byTestId('clear').click()
    const at = Date.now() + 120_000
    // started s1, s2, s3; s2 the biggest and the quickest, s3 still running and the only 404
    await feed([
      req('s1', at + 1000), { type: 'chunk', id: 's1', data: WHOLE, t: at + 1100 }, { type: 'finished', id: 's1', t: at + 1900 },
      req('s2', at + 2000), { type: 'chunk', id: 's2', data: WHOLE + WHOLE, t: at + 2100 }, { type: 'finished', id: 's2', t: at + 2050 },
      { ...req('s3', at + 3000), request: { ...(req('s3', at + 3000).request as object), status: 404 } }, { type: 'chunk', id: 's3', data: chat({ content: 'x' }), t: at + 3100 },
    ])
    await expect.poll(order).toEqual(['s1', 's2', 's3'])
    // every column of the list has its header; start order is the only sort at first
    expect(await sorts()).toEqual(Object.fromEntries(REQUEST_COLUMNS.map((c) => [c.key, c.key === 'start' ? 'ascending' : 'none'])))
    expect(await page.locator('[data-testid="request-start"]').allTextContents()).toEqual(['0', '+1.00 s', '+2.00 s'])

    await column('size').getByRole('button').click()
    await expect.poll(order).toEqual(['s3', 's1', 's2'])
    expect(await column('size').getAttribute('aria-sort')).toBe('ascending')
    expect(await column('start').getAttribute('aria-sort')).toBe('none')
    await column('size').getByRole('button').click()
    await expect.poll(order).toEqual(['s2', 's1', 's3'])
    expect(await column('size').getAttribute('aria-sort')).toBe('descending')
    await column('size').getByRole('button').click()
    await expect.poll(order).toEqual(['s1', 's2', 's3'])
    expect(await column('start').getAttribute('aria-sort')).toBe('ascending')

    // duration in milliseconds: s2 50, the running s3 100 (to its last chunk), s1 900
    await column('duration').getByRole('button').click()
    await expect.poll(order).toEqual(['s2', 's3', 's1'])
    // the keyboard: a header is a button (Enter sorts), and the arrows follow the order shown
    await column('status').getByRole('button').focus()
    await page.keyboard.press('Enter')
    await expect.poll(order).toEqual(['s1', 's2', 's3'])
    await page.keyboard.press('Enter')
    await expect.poll(order).toEqual(['s3', 's1', 's2'])
    expect(await column('status').getAttribute('aria-sort')).toBe('descending')
    await row('s3').click()
    await byTestId('request-list').focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => page.locator('[data-testid="request-row"][aria-selected="true"]').getAttribute('data-id')).toBe('s1')
    await page.keyboard.press('Enter') // back to start order for what follows
    await page.keyboard.press('Escape')
  })

  it('columns line up under their headers when they fit, and wrap whole when the list is narrow', async () => {
    // beside the selection the list is a fifth of 1280 px: the cells wrap as badges, each whole
    expect(await byTestId('request-head').getAttribute('data-columns')).toBe('wrapped')
    expect(await page.locator('[data-testid="request-column-resize"]').count()).toBe(0)
    const cut = await page.locator('[data-testid="request-row"] .ds-request-meta > *').evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1).length)
    expect(cut).toBe(0)
    // widened (the list's splitter, End: as wide as it may be), they line up in columns
    await byTestId('split-requests').focus()
    await page.keyboard.press('End')
    await expect.poll(() => byTestId('request-head').getAttribute('data-columns')).toBe('aligned')
    const left = (sel: string) => page.locator(sel).first().evaluate((el) => Math.round(el.getBoundingClientRect().left))
    expect(await left('[data-testid="request-size"]')).toBe(await left('[data-testid="request-column"][data-key="size"]'))
  })

  it('a header edge dragged (or moved with the arrow keys) resizes its column, and the width is remembered', async () => {
    // the size column's default and narrowest widths, from the column list; a drag of 40 px, an arrow step of 8
    const { width, min } = requestColumn('size')
    const handle = column('size').locator('[data-testid="request-column-resize"]')
    expect(await handle.getAttribute('aria-valuenow')).toBe(String(width))
    const sizeCell = () => page.locator('[data-testid="request-size"]').first().evaluate((el) => Math.round(el.getBoundingClientRect().width))
    expect(await sizeCell()).toBe(width)
    const box = (await handle.boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 2, { steps: 4 })
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2, { steps: 4 })
    await page.mouse.up()
    expect(await handle.getAttribute('aria-valuenow')).toBe(String(width + 40))
    expect(await sizeCell()).toBe(width + 40)
    // a drag does not sort
    expect(await column('size').getAttribute('aria-sort')).toBe('none')
    await handle.focus()
    await page.keyboard.press('ArrowRight')
    expect(await handle.getAttribute('aria-valuenow')).toBe(String(width + 48))
    await page.keyboard.press('Home')
    expect(await handle.getAttribute('aria-valuenow')).toBe(String(min))
    await page.keyboard.press('End')
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    expect(await handle.getAttribute('aria-valuenow')).toBe(String(width + 16))
    expect(await sizeCell()).toBe(width + 16)
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('deltascope.requests.columns')))!))
      .toEqual({ ...defaultWidths(), size: width + 16 })
    // the list pane never scrolls sideways for it
    expect(await byTestId('request-list').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    await page.reload()
    await expect.poll(() => column('size').locator('[data-testid="request-column-resize"]').getAttribute('aria-valuenow')).toBe(String(width + 16))
    expect(problems).toEqual([])
  })
})
