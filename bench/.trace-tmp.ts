import { readFileSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { chromium } from 'playwright-core'
import { CHROMIUM, servePage } from '../test/support/browser.js'
import { bigHar } from './heavy.js'
const server = await servePage()
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
const page = await browser.newPage({ viewport: { width: 1400, height: 860 } })
await page.goto(`${origin}/?deltascope-test`)
await page.waitForFunction(() => document.querySelector('[data-testid=request-row][data-state=finished]') !== null)
const N = Number(process.env.N ?? 10000)
writeFileSync('/tmp/hui/big.har', bigHar(N))
await browser.startTracing(page, { path: '/tmp/hui/trace.json', categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel'] })
const cdp = await page.context().newCDPSession(page)
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 250 }); await cdp.send('Profiler.start')
await page.setInputFiles('[data-testid=file-input]', '/tmp/hui/big.har')
await page.waitForFunction((n) => document.querySelectorAll('[data-testid=request-row][data-state=finished]').length >= n + 1, N, { timeout: 120000, polling: 500 })
const { profile } = await cdp.send('Profiler.stop')
await browser.stopTracing()
const t = JSON.parse(readFileSync('/tmp/hui/trace.json', 'utf8'))
const ev = (t.traceEvents ?? t) as Array<{ name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: any }>
const main = ev.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && ev.some((x) => x.pid === e.pid && x.name === 'RunTask' && (x.dur ?? 0) > 100000))
const tasks = ev.filter((e) => e.pid === main!.pid && e.tid === main!.tid && e.name === 'RunTask' && e.dur).sort((a, b) => b.dur! - a.dur!).slice(0, 4)
for (const task of tasks) {
  console.log(`task ${(task.dur! / 1000).toFixed(0)} ms`)
  const inner = ev.filter((e) => e.pid === task.pid && e.tid === task.tid && e.ts >= task.ts && e.ts < task.ts + task.dur! && e !== task && (e.dur ?? 0) > 5000)
  const byId = new Map(profile.nodes.map((n) => [n.id, n])); const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  let ts = profile.startTime; const incl = new Map<string, number>()
  for (let i = 0; i < profile.samples!.length; i++) {
    ts += profile.timeDeltas![i]!
    if (ts < task.ts || ts > task.ts + task.dur!) continue
    const seen = new Set<string>()
    for (let p: number | undefined = profile.samples![i]!; p !== undefined; p = parent.get(p)) { const n = byId.get(p)!; const k = `${n.callFrame.functionName || '(anon)'}:${n.callFrame.lineNumber}`; if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + profile.timeDeltas![i]! / 1000) } }
  }
  console.log('   js: ' + [...incl].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', '))
  for (const e of inner.slice(0, 12)) console.log(`   ${((e.ts - task.ts) / 1000).toFixed(0)} +${(e.dur! / 1000).toFixed(0)} ${e.name} ${JSON.stringify(e.args?.data ?? {}).slice(0, 150)}`)
}
await browser.close(); server.close()
