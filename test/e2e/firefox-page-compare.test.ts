// End to end in Debian firefox-esr: "Compare with the page" in Firefox's toolbox, the same
// local chat page as the Chromium suite (test/support/chat-page.ts), captured live. The panel is read and
// clicked through the test build's probe (test/support/firefox.ts: BiDi cannot script
// extension pages); the page itself is driven by puppeteer, the picker by a real mouse click.
// firefox-esr must be installed; DELTASCOPE_SKIP_FIREFOX=1 skips this suite visibly.

import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startChatPage, type ChatPage } from '../support/chat-page.js'
import { FIREFOX, buildFirefoxForTest, launchFirefox, removeBuild, startProbeServer, type FirefoxWithExtension, type Probe, type ProbeNode } from '../support/firefox.js'

const PICKED = '#chat > div.msg.assistant > div.md'
const skip = !existsSync(FIREFOX) && process.env['DELTASCOPE_SKIP_FIREFOX'] === '1'
if (skip) console.warn(`Firefox "Compare with the page" test skipped: ${FIREFOX} is missing and DELTASCOPE_SKIP_FIREFOX=1`) // eslint-disable-line no-console

const by = (nodes: ProbeNode[], testid: string): ProbeNode | undefined => nodes.find((n) => n.data['testid'] === testid)

describe.skipIf(skip)('Compare with the page (Firefox)', () => {
  let chat: ChatPage
  let probe: Probe
  let dir = ''
  let ff: FirefoxWithExtension
  const url = (n: number) => `${chat.url}/v1/chat/completions?n=${n}`
  const ask = (mode: 'correct' | 'decode' | 'parse', n: number) =>
    ff.page.evaluate((m, k) => (window as unknown as { ask(m: string, n: number): Promise<{ reads: number; content: string }> }).ask(m, k), mode, n)
  const SHOWN = '[data-testid=request-row], [data-testid=request-page], [data-testid=compare-result], [data-testid=compare-first], [data-testid=compare-message], [data-testid=compare-page-how], [data-testid=page-selector], [data-testid=page-status], [data-testid=compare-page], .ds-sel-title'

  const select = async (u: string): Promise<void> => {
    await probe.waitFor('[data-testid=request-row]', (ns) => ns.some((r) => r.data['url'] === u && r.data['state'] === 'finished'), { timeout: 15_000, message: `a finished row for ${u}` })
    expect(await probe.click(`[data-testid=request-row][data-url=${JSON.stringify(u)}]`)).toBe(true)
    await probe.waitFor('.ds-sel-title', (ns) => ns[0]?.title === u, { message: `${u} selected` })
  }
  /** Opens the compare block if closed, clears a comparison shown, clicks "Compare with the page", returns what the panel then shows. */
  const compareWithPage = async (): Promise<ProbeNode[]> => {
    if ((await probe.read('[data-testid=compare-page]')).length === 0) expect(await probe.click('[data-testid=compare] > summary')).toBe(true)
    await probe.click('[data-testid=compare-clear]')
    await probe.waitFor('[data-testid=compare-result]', (ns) => ns.length === 0, { message: 'no comparison shown' })
    await probe.waitFor('[data-testid=compare-page]', (ns) => ns[0]?.disabled === false, { message: 'the button' })
    expect(await probe.click('[data-testid=compare-page]')).toBe(true)
    await probe.waitFor('[data-testid=compare-result]', (ns) => ns.length === 1, { timeout: 15_000, message: 'the comparison with the page' })
    return probe.read(SHOWN)
  }

  beforeAll(async () => {
    if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is not installed (apt-get install firefox-esr); DELTASCOPE_SKIP_FIREFOX=1 skips this test.`)
    chat = await startChatPage()
    probe = await startProbeServer()
    dir = buildFirefoxForTest(probe.url)
    ff = await launchFirefox({ extensionDir: dir })
    await ff.page.goto(`${chat.url}/`)
    await ff.showPanel()
    await probe.connected(15_000)
    // Live (filterResponseData): the bytes as they came. Firefox's DevTools hands a finished
    // body over decoded, and the "€" split across two network reads came out as "¬" (measured
    // in 140 ESR): the reference itself would be damaged.
    await probe.waitFor('[data-testid=live-toggle]', (ns) => ns.length === 1, { message: 'the Live toggle' })
    expect(await probe.click('[data-testid=live-toggle]')).toBe(true)
    await probe.waitFor('[data-testid=live-toggle]', (ns) => ns[0]?.checked === true && ns[0].disabled === false, { message: 'live mode on' })
  }, 180_000)

  afterAll(async () => {
    await ff?.close()
    await probe?.close()
    await chat?.close()
    if (dir) removeBuild(dir)
  })

  it('a correct client rendering Markdown compares equal; decode-per-read is utf8-split at frame 5; parse-per-read is dropped-frames at frame 2', async () => {
    expect((await ask('correct', 1)).reads).toBe(3)
    await select(url(1))
    let s = await compareWithPage()
    expect([by(s, 'compare-result')!.data['equal'], by(s, 'compare-page-how')!.data['method']]).toEqual(['true', 'markdown'])
    expect(by(s, 'compare-page-how')!.text).toContain(`Compared the element whose text best matches the reply: ${PICKED}.`)

    expect((await ask('decode', 2)).content).toContain('\ufffd')
    await select(url(2))
    s = await compareWithPage()
    expect([by(s, 'compare-result')!.data['equal'], by(s, 'compare-first')!.data['cause'], by(s, 'compare-first')!.data['frame']]).toEqual(['false', 'utf8-split', '5'])

    expect((await ask('parse', 3)).content).not.toContain('first item')
    await select(url(3))
    s = await compareWithPage()
    expect([by(s, 'compare-first')!.data['cause'], by(s, 'compare-first')!.data['frame']]).toEqual(['dropped-frames', '2'])
    // captured live: the reads are known, and explain the loss
    expect(by(s, 'compare-message')!.text).toBe('The client dropped frames 2 and 5: their text (" first item second", …) is missing from the content; frame 2 arrived split across reads 0 and 1, frame 5 across reads 1 and 2: a client that parses each read on its own drops them.')
  }, 90_000)

  it('Pick by a real mouse click, then every stream compared on its own: the next row shows its verdict', async () => {
    await select(url(1))
    expect(await probe.click('[data-testid=page-pick]')).toBe(true)
    await ff.page.waitForFunction(() => Object.getOwnPropertyNames(window).includes('__deltascopePicker'), { timeout: 10_000 })
    const box = (await (await ff.page.$('div.md'))!.boundingBox())!
    await ff.page.mouse.move(box.x + 4, box.y + 4)
    await ff.page.mouse.click(box.x + 4, box.y + 4)
    await probe.waitFor('[data-testid=compare-result]', (ns) => ns[0]?.data['equal'] === 'true', { timeout: 15_000, message: 'the picked element compared equal' })
    // the picked selector (the probe reads no input's value: the comparison names it)
    expect(by(await probe.read(SHOWN), 'compare-page-how')!.text).toContain(`Compared ${PICKED}, match 1 of 3.`)
    expect(await ff.page.evaluate(() => [Object.getOwnPropertyNames(window).includes('__deltascopePicker'), (window as unknown as { clicks: number }).clicks])).toEqual([false, 0])

    expect(await probe.click('[data-testid=page-every]')).toBe(true)
    await ask('parse', 4)
    const marks = await probe.waitFor('[data-testid=request-row], [data-testid=request-page]', (ns) => {
      const row = ns.findIndex((n) => n.data['url'] === url(4))
      return row >= 0 && ns.some((n) => n.parent === row && n.data['testid'] === 'request-page')
    }, { timeout: 20_000, message: 'the verdict on row 4' })
    const row = marks.findIndex((n) => n.data['url'] === url(4))
    const mark = marks.find((n) => n.parent === row && n.data['testid'] === 'request-page')!
    expect([mark.text, mark.data['state'], mark.data['cause']]).toEqual(['✗', 'differs', 'dropped-frames'])
  }, 90_000)
})
