import { readFileSync, writeFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { CHROMIUM, servePage } from '../test/support/browser.js'
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const file = '/tmp/deltascope-exp.sse'
const server = await servePage()
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
const field = (pid: number, f: string) => Number(new RegExp(`^${f}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024
for (let run = 0; run < Number(process.argv[2] ?? 3); run++) {
  const ctx = await browser.newContext()
  const page = await ctx.newPage()
  await page.setViewportSize({ width: 1400, height: 860 })
  await page.goto(`${origin}/?deltascope-test`)
  await page.waitForFunction(() => document.querySelector('[data-testid=request-row][data-state=finished]') !== null)
  const cdp = await browser.newBrowserCDPSession()
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo') as any
  const pids = processInfo.filter((p: any) => p.type === 'renderer').map((p: any) => p.id)
  const pc = await ctx.newCDPSession(page); await pc.send('HeapProfiler.enable'); await pc.send('HeapProfiler.collectGarbage')
  await new Promise((r) => setTimeout(r, 300))
  const rss0 = pids.reduce((n: number, p: number) => n + field(p, 'VmRSS'), 0)
  for (const p of pids) writeFileSync(`/proc/${p}/clear_refs`, '5')
  const t0 = Date.now()
  await page.setInputFiles('[data-testid=file-input]', file)
  await page.waitForFunction(() => {
    const sel = document.querySelector('[data-testid=request-row][aria-selected=true]') as HTMLElement | null
    return sel?.dataset['id']?.startsWith('import') && document.querySelector('[data-testid=request-state]')?.textContent === 'finished' && (document.querySelector('[data-testid=finish-reason]')?.textContent ?? '') !== ''
  }, undefined, { timeout: 120000, polling: 50 })
  const ms = Date.now() - t0
  await new Promise((r) => setTimeout(r, 1000))
  const peak = pids.reduce((n: number, p: number) => n + field(p, 'VmHWM'), 0)
  console.log(`final ${ms} ms, peak +${((peak - rss0) / 1048576).toFixed(0)} MB = ${((peak - rss0) / 67108864).toFixed(2)}×`)
  await ctx.close()
}
await browser.close(); server.close()
