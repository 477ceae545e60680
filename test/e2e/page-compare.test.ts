// End to end: "Compare with the page" in Chromium's DevTools with the baseline package
// (dist/chrome: no permission). A local chat page (test/support/chat-page.ts) streams a
// Markdown reply in three reads and renders it with one of three clients; the panel reads
// what the page shows through devtools.inspectedWindow.eval and compares it with the reply
// rebuilt from the captured stream: the correct client is equal, the one that decodes each
// read on its own is utf8-split at frame 5 (the "€" split across reads), the one that parses
// each read on its own is dropped-frames at frame 2 (the first frame split across reads).
// The picker chooses an element by a real mouse click; with the toggle on, the next streams'
// rows show their verdicts without a click.

import { existsSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROME_DIST, ensureExtensionBuilt, launchWithExtension, sleep, type ExtensionBrowser, type PanelHandle } from '../support/browser.js'
import { startChatPage, type ChatPage } from '../support/chat-page.js'
import { screenshotPath } from '../support/screenshots.js'

const sel = (s: string): string => JSON.stringify(s)
const PICKED = '#chat > div.msg.assistant > div.md'

interface Shown {
  equal: string | null
  how: string | null
  method: string | null
  cause: string | null
  frame: string | null
  message: string | null
  status: string | null
  context: string[]
}

async function selectRequest(panel: PanelHandle, url: string): Promise<void> {
  const row = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(url)})`
  await panel.waitFor(`${row}?.dataset.state === 'finished'`, { message: `a finished request row for ${url}` })
  await panel.evaluate(`${row}.click()`)
  await panel.waitFor(`document.querySelector('.ds-sel-title')?.title === ${sel(url)}`, { message: `the selection to show ${url}` })
  await showCompare(panel)
}

/**
 * The Reply pane shown and its compare block open. In the stacked layout (a narrow DevTools
 * window) the Reply tab is clicked, again on each poll: the layout may switch under a click
 * that came first.
 */
async function showCompare(panel: PanelHandle): Promise<void> {
  await panel.waitFor(`(() => {
    const block = document.querySelector('[data-testid=compare]')
    if (!block) { document.querySelector('[data-testid=pane-tab-reply]')?.click(); return false }
    block.open = true
    return true
  })()`, { message: 'the compare block shown' })
}

/** Clicks "Compare with the page" and waits for a comparison of this request that differs from `before`. */
async function compareWithPage(panel: PanelHandle): Promise<Shown> {
  await panel.evaluate(`document.querySelector('[data-testid=compare-clear]')?.click()`)
  await panel.waitFor(`!document.querySelector('[data-testid=compare-result]')`, { message: 'no comparison shown' })
  await panel.waitFor(`document.querySelector('[data-testid=compare-page]') && !document.querySelector('[data-testid=compare-page]').disabled`, { message: 'the button' })
  await panel.evaluate(`document.querySelector('[data-testid=compare-page]').click()`)
  await panel.waitFor(`document.querySelector('[data-testid=compare-result]')`, { timeout: 15_000, message: 'the comparison with the page' })
  return readShown(panel)
}

function readShown(panel: PanelHandle): Promise<Shown> {
  return panel.evaluate<Shown>(`(() => {
    const q = (id) => document.querySelector('[data-testid="' + id + '"]')
    return {
      equal: q('compare-result')?.dataset.equal ?? null,
      how: q('compare-page-how')?.textContent ?? null,
      method: q('compare-page-how')?.dataset.method ?? null,
      cause: q('compare-first')?.dataset.cause ?? null,
      frame: q('compare-first')?.dataset.frame ?? null,
      message: q('compare-message')?.textContent ?? null,
      status: q('page-status')?.textContent ?? null,
      context: [...document.querySelectorAll('.ds-context th')].map((th) => th.textContent),
    }
  })()`)
}

/** The DevTools window laid out at `size`, the Reply tab shown when narrow, scrolled to the comparison, saved as `name`. */
async function shoot(panel: PanelHandle, name: string, size: { width: number; height: number }): Promise<void> {
  await panel.devtools.send('Emulation.setDeviceMetricsOverride', { ...size, deviceScaleFactor: 1, mobile: false })
  try {
    await panel.waitFor(`document.querySelector('.ds-root').dataset.layout === ${sel(size.width < 700 ? 'stacked' : 'side')}`, { message: 'the layout for the shot' })
    // the page's buttons at the top, clear of the reply pane's sticky scrubber; polled, as
    // the resize may re-render the pane between finding the block and scrolling to it
    await panel.waitFor(`(() => {
      const block = document.querySelector('[data-testid=compare]')
      if (!block) { document.querySelector('[data-testid=pane-tab-reply]')?.click(); return false }
      block.open = true
      const el = block.querySelector('[data-testid=page-compare]')
      if (!el) return false
      el.scrollIntoView({ block: 'start' })
      let box = el.parentElement
      while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement
      if (box) box.scrollTop -= 48
      return true
    })()`, { message: 'the page-compare controls scrolled into view' })
    await sleep(300) // a paint after the scroll
    const shot = await panel.devtools.send<{ data: string }>('Page.captureScreenshot', { format: 'png' })
    writeFileSync(screenshotPath(name), Buffer.from(shot.data, 'base64'))
  } finally {
    await panel.devtools.send('Emulation.clearDeviceMetricsOverride').catch(() => undefined)
  }
}

const available = existsSync(CHROMIUM)

describe.skipIf(!available)('Compare with the page (Chromium, dist/chrome)', () => {
  let chat: ChatPage
  let b: ExtensionBrowser
  let panel: PanelHandle
  const url = (n: number) => `${chat.url}/v1/chat/completions?n=${n}`
  const ask = (mode: 'correct' | 'decode' | 'parse', n: number) =>
    b.page.evaluate(([m, k]) => (window as unknown as { ask(m: string, n: number): Promise<{ reads: number; content: string }> }).ask(m as string, k as number), [mode, n] as const)

  beforeAll(async () => {
    ensureExtensionBuilt()
    chat = await startChatPage()
    b = await launchWithExtension({ extensionDir: CHROME_DIST })
    await b.page.goto(`${chat.url}/`)
    panel = await b.openPanel()
  }, 90_000)

  afterAll(async () => {
    await b?.close()
    await chat?.close()
  })

  it('a correct client rendering Markdown (bold, a list, a code block, a table) compares equal, found by its text', async () => {
    const read = await ask('correct', 1)
    expect(read.reads).toBe(3)
    await selectRequest(panel, url(1))
    const shown = await compareWithPage(panel)
    expect(shown.equal).toBe('true')
    expect(shown.method).toBe('markdown')
    expect(shown.how).toBe(
      "Compared with the reply's Markdown rendered to text (micromark + micromark-extension-gfm (CommonMark + GFM)), white space normalised."
      + `Compared the element whose text best matches the reply: ${PICKED}.`
      + "Left out of the page's text: \"Copy\"."
      + "The page's text is nearer the reference's Markdown rendered than its raw text: compared rendered.",
    )
  }, 30_000)

  it('a client that decodes each read on its own shows U+FFFD: utf8-split at frame 5, the frame holding the split "€"', async () => {
    const read = await ask('decode', 2)
    expect(read.content).toContain('caf\ufffd')
    await selectRequest(panel, url(2))
    const shown = await compareWithPage(panel)
    expect([shown.equal, shown.cause, shown.frame]).toEqual(['false', 'utf8-split', '5'])
    // captured without Live: DevTools hands the body over whole, so the capture knows no reads
    expect(shown.message).toMatch(/^The client turned "€" in frame 5 into (U\+FFFD ?)+: it decoded network reads on their own \(without \{stream: true\}\), splitting the character; the capture holds the body whole, as DevTools hands it over once it ended \(captured without Live\), so where the reads were cut is not known\.$/)
    expect(shown.context).toEqual(['expected', 'the page'])
    // the newest of the two replies was compared
    expect(shown.how).toContain(`Compared the element whose text best matches the reply: ${PICKED}, the last of 2.`)
    // the frame behind it is selected
    await panel.waitFor(`document.querySelector('[data-testid=frame-row][data-seq="5"]')?.getAttribute('aria-selected') === 'true'`, { message: 'frame 5 selected' })
  }, 30_000)

  it('a client that parses each read on its own: dropped-frames at frame 2, the first frame split across reads', async () => {
    const read = await ask('parse', 3)
    expect(read.content).not.toContain('first item')
    await selectRequest(panel, url(3))
    const shown = await compareWithPage(panel)
    expect([shown.equal, shown.cause, shown.frame]).toEqual(['false', 'dropped-frames', '2'])
    expect(shown.message).toBe('The client dropped frames 2 and 5: their text (" first item second", …) is missing from the content.')
    await shoot(panel, 'compare-page.png', { width: 1280, height: 760 })
    await shoot(panel, 'compare-page-narrow.png', { width: 560, height: 900 })
  }, 30_000)

  it('Pick: a real mouse click on the page chooses the element (the page never gets the click); Escape cancels; nothing is left behind', async () => {
    const leftovers = `({ prop: Object.getOwnPropertyNames(window).includes('__deltascopePicker'), boxes: [...document.querySelectorAll('body > div')].filter((d) => d.style.zIndex === '2147483647').length })`
    await showCompare(panel) // the shots before resized the window: the layout may have changed under it
    // Escape cancels
    await panel.evaluate(`document.querySelector('[data-testid=page-pick]').click()`)
    await b.page.waitForFunction(() => Object.getOwnPropertyNames(window).includes('__deltascopePicker'))
    await b.page.mouse.move(20, 20)
    await b.page.keyboard.press('Escape')
    await panel.waitFor(`document.querySelector('[data-testid=page-status]')?.textContent === 'Picking cancelled.'`, { message: 'the pick cancelled' })
    expect(await b.page.evaluate(leftovers)).toEqual({ prop: false, boxes: 0 })

    // the first reply (the correct client's), chosen by a click in it, compared with request 1
    await selectRequest(panel, url(1))
    await panel.evaluate(`document.querySelector('[data-testid=page-pick]').click()`)
    await b.page.waitForFunction(() => Object.getOwnPropertyNames(window).includes('__deltascopePicker'))
    const box = (await b.page.locator('div.md').first().boundingBox())!
    await b.page.mouse.move(box.x + 4, box.y + 4)
    // hovering outlines the element
    await b.page.waitForFunction(() => [...document.querySelectorAll('body > div')].some((d) => (d as HTMLElement).style.zIndex === '2147483647' && (d as HTMLElement).style.display === 'block'))
    await b.page.mouse.click(box.x + 4, box.y + 4)
    await panel.waitFor(`document.querySelector('[data-testid=page-selector]')?.value === ${sel(PICKED)}`, { message: 'the picked selector' })
    await panel.waitFor(`document.querySelector('[data-testid=compare-result]')?.dataset.equal === 'true'`, { timeout: 15_000, message: 'the picked element compared equal' })
    const shown = await readShown(panel)
    expect(shown.how).toContain(`Compared ${PICKED}, match 1 of 3.`)
    expect(await panel.evaluate(`document.querySelector('[data-testid=page-origin]').textContent`)).toBe(`Selector kept for ${chat.url}`)
    expect(await b.page.evaluate(leftovers)).toEqual({ prop: false, boxes: 0 })
    expect(await b.page.evaluate(() => (window as unknown as { clicks: number }).clicks)).toBe(0)
  }, 30_000)

  it('with "Compare every stream with the page" on, the next streams\' rows show their verdicts without a click', async () => {
    await showCompare(panel)
    await panel.evaluate(`document.querySelector('[data-testid=page-every]').click()`)
    await ask('correct', 4)
    const mark = (n: number) => `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(url(n))})?.querySelector('[data-testid=request-page]')`
    await panel.waitFor(`${mark(4)}?.dataset.state === 'equal'`, { timeout: 15_000, message: 'the verdict on row 4' })
    expect(await panel.evaluate(`${mark(4)}.textContent`)).toBe('✓')
    await ask('parse', 5)
    await panel.waitFor(`${mark(5)}?.dataset.state === 'differs'`, { timeout: 15_000, message: 'the verdict on row 5' })
    expect(await panel.evaluate(`[${mark(5)}.textContent, ${mark(5)}.dataset.cause]`)).toEqual(['✗', 'dropped-frames'])
    expect(await panel.evaluate<string>(`${mark(5)}.title`)).toBe(
      `dropped-frames: The client dropped frames 2 and 5: their text (" first item second", …) is missing from the content. (${PICKED}, the last of 5, compared rendered as Markdown)`,
    )
    // the rows compared before the toggle was on carry no verdict
    expect(await panel.evaluate(`${mark(1)} ?? null`)).toBe(null)
  }, 40_000)
})
