// The standalone page, built, served from 127.0.0.1 and driven in Debian Chromium, given runs
// whose messages stream at once (agents and fan-outs interleave them): a LangGraph fan-out and a ReAct agent's steps are
// shown as the client ends them, one block per message, each tool call with its result under
// it; rewound to a frame, the messages as they stood then; a plain completion has no block.

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

/** Each message block: its id, role and its text parts. */
async function messages(): Promise<Array<[string, string, string[]]>> {
  const blocks = page.locator('[data-testid="message"]')
  const out: Array<[string, string, string[]]> = []
  for (let i = 0; i < await blocks.count(); i++) {
    const b = blocks.nth(i)
    out.push([
      (await b.locator('[data-testid="message-id"]').textContent()) ?? '',
      (await b.locator('[data-testid="message-role"]').textContent()) ?? '',
      await b.locator('[data-testid="message-text"]').allTextContents(),
    ])
  }
  return out
}

describe('the page shows a run as its messages', () => {
  it('a LangGraph fan-out: two messages apart, whatever the interleaving; the choice is their text joined', async () => {
    await openFileInPage(page, 'parallel.sse', fixture('langgraph/messages-tuple-parallel-branches.sse'))
    await expect.poll(messages).toEqual([
      ['run-m9a', 'assistant', ['Low water at 06:42. ']],
      ['run-m9b', 'assistant', ['Sunny, 4 °C. ']],
    ])
    expect(await byTestId('reply-content').allTextContents()).toEqual(['Low water at 06:42. Sunny, 4 °C. '])
  })

  it('a click on a character of a message selects the frame that wrote it, and that frame\'s text is marked in its message', async () => {
    // "Sunny, " (message 1's first characters) came in frame 2
    await page.locator('[data-testid="message"][data-index="1"] [data-testid="message-text"]').click({ position: { x: 3, y: 6 } })
    await expect.poll(() => page.locator('[data-testid="frame-row"][aria-selected="true"]').getAttribute('data-seq')).toBe('2')
    await expect.poll(() => page.locator('[data-testid="message"] mark').allTextContents()).toEqual(['Sunny, '])
  })

  it('rewound to frame 2, the messages as they stood after it, the text frame 2 wrote marked in its message and in the choice', async () => {
    await page.locator('[data-testid="frame-row"][data-seq="2"]').click()
    await expect.poll(messages).toEqual([
      ['run-m9a', 'assistant', ['Low water ']],
      ['run-m9b', 'assistant', ['Sunny, ']],
    ])
    await expect.poll(() => page.locator('[data-testid="message"] mark').allTextContents()).toEqual(['Sunny, '])
    expect(await page.locator('[data-testid="message"][data-index="1"] [data-testid="message-part"][data-written="true"]').count()).toBe(1)
    expect(await byTestId('reply-content').allTextContents()).toEqual(['Low water Sunny, '])
    expect(await page.locator('[data-testid="reply-content"] mark').allTextContents()).toEqual(['Sunny, '])
  })

  it("an agent's steps: each call with its result under it, the failed one marked", async () => {
    await openFileInPage(page, 'steps.sse', fixture('langgraph/messages-tuple-tool-steps-failed-tool.sse'))
    await expect.poll(() => page.locator('[data-testid="message"]').count()).toBe(4)
    const first = page.locator('[data-testid="message"]').nth(0)
    expect(await first.locator('[data-testid="message-arguments"]').allTextContents()).toEqual(['{"port":"Bergen"}', '{"city":"Bergen"}'])
    expect(await first.locator('[data-testid="tool-result"]').allTextContents()).toEqual([
      'resultHigh water 12:58, low water 19:10.',
      'failed: Error: forecast service timed out\n Please fix your mistakes.',
    ])
    expect(await first.locator('[data-testid="tool-result"][data-error="true"]').count()).toBe(1)
  })

  it('a long run lays out its first 50 messages (more on demand) and the first 4,000 characters of a part', async () => {
    const ev = (o: object) => `data: ${JSON.stringify(o)}\n\n`
    const body = Array.from({ length: 60 }, (_, i) => ev({ type: 'TEXT_MESSAGE_START', messageId: `m${i}`, role: 'assistant' }) + ev({ type: 'TEXT_MESSAGE_CONTENT', messageId: `m${i}`, delta: i === 0 ? 'x'.repeat(5000) : `message ${i}` })).join('')
    await openFileInPage(page, 'long.sse', Buffer.from(body + ev({ type: 'RUN_FINISHED', threadId: 't', runId: 'r' })))
    await expect.poll(() => page.locator('[data-testid="message"]').count()).toBe(50)
    expect(await byTestId('message-text-more').allTextContents()).toEqual([' … 1000 more chars'])
    await byTestId('more-messages').click()
    await expect.poll(() => page.locator('[data-testid="message"]').count()).toBe(60)
    expect(await byTestId('more-messages').count()).toBe(0)
  })

  it('a plain chat completion has its choice only, no message block', async () => {
    await openFileInPage(page, 'plain.sse', fixture('openai-chat/crlf-line-endings.sse'))
    await expect.poll(() => byTestId('reply-content').allTextContents()).toEqual(['Line one\nLine two'])
    expect(await byTestId('messages').count()).toBe(0)
    expect(problems).toEqual([])
  })
})
