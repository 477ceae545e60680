// The standalone page, built, served from 127.0.0.1 and driven in Debian Chromium, given the
// two framings that are neither SSE nor NDJSON: a Bedrock ConverseStream body saved as .bin (binary, recorded) and
// an AI SDK v4 data stream (.txt): each is listed, read by its adapter, and a frame of the
// binary one shows its headers and JSON, not bytes.

import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, type OpenedPage } from '../support/browser.js'
import { openFileInPage } from '../support/page-files.js'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url))

let opened: OpenedPage
let page: Page
let problems: string[] = []
const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`)

beforeAll(async () => {
  opened = await openPage()
  ;({ page, problems } = opened)
}, 120_000)

afterAll(async () => {
  await opened?.close()
})

describe('the page reads the newer framings', () => {
  it('a recorded Bedrock body (.bin) is read as bedrock: the text, the tool call, the finish, 27 frames', async () => {
    await openFileInPage(page, 'converse-stream.bin', fixture('bedrock/text-then-tool-use.bin'), 'application/octet-stream')
    await expect.poll(() => byTestId('reply-content').allTextContents()).toEqual([
      "I can certainly help you with the weather in San Francisco, but I'm afraid I don't have a specific tool to check the current time there. Let me get the weather information for you.",
    ])
    expect([await byTestId('frame-count').textContent(), await byTestId('finish-reason').textContent()]).toEqual(['27', 'tool_use'])
    expect(await page.locator('[data-testid="force-provider"] option:checked').textContent()).toBe('auto (bedrock)')
  })

  it("a binary frame shows its headers and its JSON payload", async () => {
    await page.locator('[data-testid="frame-row"][data-seq="1"]').click()
    await expect.poll(() => byTestId('frame-raw').textContent()).toBe(
      ':event-type: contentBlockDelta\n:content-type: application/json\n:message-type: event\n\n{"contentBlockIndex":0,"delta":{"text":"I can"},"p":"abcdefghijk"}',
    )
  })

  it('an AI SDK v4 data stream (.txt) is read as ai-sdk-v4, its reasoning and text apart', async () => {
    await openFileInPage(page, 'chat.txt', fixture('ai-sdk-v4/reasoning-signature-redacted.txt'), 'text/plain')
    await expect.poll(() => byTestId('reply-content').allTextContents()).toEqual(['Hi there!'])
    expect(await page.locator('[data-testid="force-provider"] option:checked').textContent()).toBe('auto (ai-sdk-v4)')
    expect(problems).toEqual([])
  })
})
