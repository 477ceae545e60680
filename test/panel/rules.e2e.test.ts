// "Read this stream as…" in the standalone page, built, served from 127.0.0.1 and driven in
// Debian Chromium: a pasted stream of an app's own JSON frames is read as generic (nothing
// rebuilt); the editor suggests rules from the frames and previews the reply; Apply reads the
// stream with them (the exact text, its finish reason); the rules are saved for the URL, so the
// next paste is read with them at once; a bad edit is refused with the field named.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, type OpenedPage } from '../support/browser.js'
import { screenshotPath } from '../support/screenshots.js'

const frame = (o: object) => `data: ${JSON.stringify(o)}\n\n`
/** An app's own protocol: no built-in adapter reads it. */
const STREAM = [
  frame({ type: 'start', id: 'm1' }),
  frame({ type: 'chunk', id: 'm1', text: 'Hello' }),
  frame({ type: 'chunk', id: 'm1', text: ', world' }),
  frame({ type: 'chunk', id: 'm1', text: '!' }),
  frame({ type: 'end', id: 'm1', reason: 'complete' }),
].join('')

let opened: OpenedPage
let page: Page
let problems: string[] = []
const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`)
const reply = () => page.locator('[data-testid="reply-content"]').allTextContents()

beforeAll(async () => {
  opened = await openPage()
  ;({ page, problems } = opened)
}, 120_000)

/** Run after the page closes (files it may still read). */
const onExit: Array<() => void> = []

afterAll(async () => {
  await opened?.close()
  for (const f of onExit) f()
})

describe('Read this stream as…', () => {
  it('a pasted stream of unknown JSON frames is generic: nothing rebuilt, and the editor is offered', async () => {
    await page.getByLabel('Paste a stream').fill(STREAM)
    await expect.poll(() => page.locator('[data-testid="request-row"][aria-selected="true"]').getAttribute('title')).toBe('pasted text')
    await expect.poll(() => byTestId('rules-open').textContent()).toBe('Read this stream as…')
    expect(await reply()).toEqual([])
  })

  it('the editor suggests the growing string field, the finish reason and the end, and previews the exact reply', async () => {
    await byTestId('rules-open').click()
    const rules = JSON.parse(await byTestId('rules-json').inputValue()) as unknown
    expect(rules).toEqual({ version: 1, mode: 'append', text: 'text', finishReason: 'reason', done: { path: 'type', equals: 'end' } })
    expect(await byTestId('rules-preview-content').textContent()).toBe('Hello, world!')
    expect(await byTestId('rules-pattern').inputValue()).toBe('pasted text*')
    await page.screenshot({ path: screenshotPath('rules-editor.png') })
  })

  it('a bad edit is refused with the field named, and Apply waits for a good one', async () => {
    const good = await byTestId('rules-json').inputValue()
    await byTestId('rules-json').fill(good.replace('"text": "text"', '"text": "text["'))
    await expect.poll(() => byTestId('rules-error').allTextContents()).toEqual(['text: "text[" is not a path: "[" at character 5 has no "]"'])
    expect(await byTestId('rules-apply').isDisabled()).toBe(true)
    await byTestId('rules-json').fill(good)
    await expect.poll(() => byTestId('rules-preview-content').textContent()).toBe('Hello, world!')
  })

  it('Apply reads the stream with the rules: the reply shows the exact text and finish reason', async () => {
    await byTestId('rules-apply').click()
    await expect.poll(() => reply()).toEqual(['Hello, world!'])
    expect(await byTestId('finish-reason').allTextContents()).toEqual(['complete'])
    expect(await byTestId('rules-editor').count()).toBe(0)
    expect(await page.locator('[data-testid="force-provider"] option:checked').textContent()).toBe('auto (rules)')
    expect(await byTestId('rules-open').textContent()).toBe('Rules…')
    await page.screenshot({ path: screenshotPath('rules-applied.png') })
  })

  it('the rules are kept for the URL pattern: the next paste is read with them at once', async () => {
    const stored = await page.evaluate(() => localStorage.getItem('deltascope.rules'))
    expect(JSON.parse(stored!)).toEqual({
      version: 1,
      rules: [{ pattern: 'pasted text*', rules: { version: 1, mode: 'append', text: 'text', finishReason: 'reason', done: { path: 'type', equals: 'end' } } }],
    })
    await page.getByLabel('Paste a stream').fill(STREAM.replace('"!"', '"?"'))
    await expect.poll(() => reply()).toEqual(['Hello, world?'])
  })

  it('choosing a provider replaces the rules; "Read without rules" gives the stream back to detection', async () => {
    await page.locator('[data-testid="force-provider"]').selectOption('openai-chat')
    await expect.poll(() => reply()).toEqual([])
    await expect.poll(() => byTestId('rules-open').count()).toBe(0)
    await page.locator('[data-testid="force-provider"]').selectOption('')
    await expect.poll(() => byTestId('rules-open').textContent()).toBe('Read this stream as…')
    await page.getByLabel('Paste a stream').fill(STREAM.replace('"!"', '"."'))
    await expect.poll(() => reply()).toEqual(['Hello, world.'])
    await byTestId('rules-open').click()
    await byTestId('rules-stop').click()
    await expect.poll(() => reply()).toEqual([])
    expect(await page.evaluate(() => localStorage.getItem('deltascope.rules'))).toBe('{"version":1,"rules":[]}')
    expect(problems).toEqual([])
  })

  it('on a body past 2 MB the editor previews its first 2 MB only (not the body copied here), says so, suggests the finish reason and end from the body\'s last frames, and Apply reads it all', async () => {
    const words = Array.from({ length: 45_000 }, (_, i) => frame({ type: 'chunk', id: 'm2', text: `w${i} ` }))
    const big = frame({ type: 'start', id: 'm2' }) + words.join('') + frame({ type: 'end', id: 'm2', reason: 'complete' })
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024)
    const dir = mkdtempSync(join(tmpdir(), 'deltascope-rules-'))
    const path = join(dir, 'big.sse')
    writeFileSync(path, big)
    onExit.push(() => rmSync(dir, { recursive: true, force: true })) // the store reads the file as it merges: kept until then
    await page.setInputFiles('[data-testid=file-input]', path)
    const selected = page.locator('[data-testid="request-row"][aria-selected="true"]')
    await expect.poll(async () => `${await selected.getAttribute('title')} ${await selected.getAttribute('data-state')}`, { timeout: 15_000 }).toBe('big.sse finished')
    await expect.poll(() => byTestId('rules-open').textContent()).toBe('Read this stream as…')
    await byTestId('rules-open').click()
    await expect.poll(() => page.locator('[data-testid="rules-editor"] .ds-muted').allTextContents(), { timeout: 10_000 }).toContain('(the preview reads the first 2.0 MB; Apply reads it all)')
    // the text from the first frames; the finish reason and the end from the last ones, far past the head (Recordings.tail)
    expect(JSON.parse(await byTestId('rules-json').inputValue())).toEqual({ version: 1, mode: 'append', text: 'text', finishReason: 'reason', done: { path: 'type', equals: 'end' } })
    await expect.poll(() => byTestId('rules-preview-content').textContent()).toMatch(/^w0 w1 w2 .*…$/)
    await byTestId('rules-apply').click()
    const whole = Array.from({ length: 45_000 }, (_, i) => `w${i} `).join('')
    await expect.poll(() => page.locator('[data-testid="reply-content"]').evaluate((e) => e.textContent!.length), { timeout: 15_000 }).toBe(20_000)
    expect((await reply())[0]).toBe(whole.slice(0, 20_000))
    expect(await byTestId('finish-reason').textContent()).toBe('complete')
    expect(problems).toEqual([])
  })
})
