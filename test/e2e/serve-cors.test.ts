// deltascope serve from a browser app: a page on another origin (http://localhost:PORT, the
// server on 127.0.0.1) sends the request a chat app sends (POST, JSON, an Authorization
// header: a preflight first) and reads the streamed body. Headless Debian Chromium.

import { createServer, type Server } from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { afterAll, expect, it } from 'vitest'
import { fixtureToJson, toFixture } from '../../src/exchange/index.js'
import { startServe } from '../cli/serve-support.js'
import { CHROMIUM, CHROMIUM_ARGS } from '../support/browser.js'
import { chatRecording } from '../testing/stress-clients.js'

const tmp = mkdtempSync(join(tmpdir(), 'deltascope-serve-cors-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** The app's page: it reads the stream read by read, as a chat UI does. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>app</title><script>
window.chat = async (url) => {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' }, body: '{"stream":true}' })
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let reads = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    reads++
    text += decoder.decode(value, { stream: true })
  }
  return { status: response.status, requestId: response.headers.get('x-request-id'), text, reads }
}
</script>`

it('a page on another origin reads the served stream: the preflight is answered, the body and an exposed header come through', async () => {
  const recording = chatRecording()
  recording.request.responseHeaders.push({ name: 'x-request-id', value: 'req_42' })
  const fixture = toFixture(recording, { includeCredentials: true })
  const file = join(tmp, 'chat.deltascope.json')
  writeFileSync(file, fixtureToJson(fixture))
  const serving = await startServe([file, '--speed', '0'])
  const app: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE))
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
  const appOrigin = `http://localhost:${(app.address() as AddressInfo).port}`
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS.filter((a) => a !== '--auto-open-devtools-for-tabs') })
  try {
    const page = await browser.newPage()
    await page.goto(`${appOrigin}/`)
    const got = await page.evaluate((url) => (window as unknown as { chat(u: string): Promise<unknown> }).chat(url), `${serving.base}/v1/chat/completions`)
    expect(got).toEqual({ status: 200, requestId: 'req_42', text: fixture.body.text, reads: expect.any(Number) })
    expect(await serving.logged(/OPTIONS/)).toMatch(new RegExp(` OPTIONS /v1/chat/completions → 204 preflight from ${appOrigin}$`))
    expect(await serving.logged(/POST .* → 200/)).toMatch(/ POST \/v1\/chat\/completions → 200 · 6 reads, 653 bytes in \d+ ms · chat\.deltascope\.json · request body 15 bytes$/)
  } finally {
    await browser.close()
    await new Promise((resolve) => app.close(resolve))
    await serving.stop()
  }
})
