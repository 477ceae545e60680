// The user's redaction list in the DevTools panel (Debian Chromium, the built extension,
// DevTools open): edited in the Redact popover, kept by the DevTools shell. The baseline
// package grants no permission (no `storage`), so the list is kept in the panel page's own
// localStorage (the extension's origin), and a reloaded panel has it back.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureExtensionBuilt, launchWithExtension, type ExtensionBrowser, type PanelHandle } from '../support/browser.js'

let b: ExtensionBrowser
let panel: PanelHandle
let server: Server

const STREAM = 'data: {"choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'

beforeAll(async () => {
  // a page that fetches one stream, so the panel lists a request and shows its export bar
  server = createServer((req, res) => {
    if (req.url === '/stream.sse') res.writeHead(200, { 'content-type': 'text/event-stream' }).end(STREAM)
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>redaction</p>')
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  b = await launchWithExtension({ extensionDir: ensureExtensionBuilt() })
  await b.page.goto(`${origin}/`)
  panel = await b.openPanel()
  await b.page.evaluate(() => fetch('/stream.sse').then((r) => r.text()))
  await panel.waitFor(`document.querySelectorAll('[data-testid="request-row"]').length === 1`, { timeout: 30_000 })
  await panel.evaluate(`document.querySelector('[data-testid="request-row"]').click()`)
}, 120_000)

afterAll(async () => {
  await b?.close()
  await new Promise((ok) => server?.close(ok))
})

/** Types into a box of the popover as the user would (Preact reads the input event). */
const type = (testid: string, value: string) => `(() => {
  const el = document.querySelector('[data-testid="${testid}"]')
  el.value = ${JSON.stringify(value)}
  el.dispatchEvent(new Event('input', { bubbles: true }))
  return true
})()`

describe('the DevTools panel keeps the list', () => {
  it('saved from the popover into the extension page\'s localStorage (no storage permission), back after the panel reloads', async () => {
    await panel.waitFor(`!!document.querySelector('[data-testid="redaction-settings"]')`)
    expect(await panel.evaluate(`typeof chrome.storage`)).toBe('undefined')
    await panel.evaluate(`document.querySelector('[data-testid="redaction-settings"]').click()`)
    await panel.waitFor(`!!document.querySelector('[data-testid="redaction-popover"]')`)
    await panel.evaluate(type('redaction-names', 'X-Tenant'))
    await panel.evaluate(type('redaction-patterns', 'sk-live-*'))
    await panel.evaluate(`document.querySelector('[data-testid="redaction-save"]').click()`)
    await panel.waitFor(`!document.querySelector('[data-testid="redaction-popover"]')`)
    await panel.waitFor(`localStorage.getItem('deltascope.redaction') !== null`)
    expect(JSON.parse(await panel.evaluate<string>(`localStorage.getItem('deltascope.redaction')`))).toEqual({
      version: 1, names: ['X-Tenant'], values: [], patterns: ['sk-live-*'],
    })
    expect(await panel.evaluate(`document.querySelector('[data-testid="redaction-settings"]').textContent`)).toBe('Redact +2 ▾')

    // a reloaded panel (the hub replays the request): the list is back
    await panel.evaluate(`window.__beforeReload = true`)
    await panel.evaluate(`location.reload()`).catch(() => undefined)
    await panel.waitFor(`window.__beforeReload === undefined && document.querySelectorAll('[data-testid="request-row"]').length === 1`, { timeout: 30_000 })
    await panel.evaluate(`document.querySelector('[data-testid="request-row"]').click()`)
    await panel.waitFor(`document.querySelector('[data-testid="redaction-settings"]')?.textContent === 'Redact +2 ▾'`, { timeout: 30_000 })
  }, 90_000)
})
