import { writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { chromium } from 'playwright-core'
import { CHROMIUM, servePage } from '../test/support/browser.js'
import { bigHar } from './heavy.js'
const server = await servePage()
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
const page = await browser.newPage({ viewport: { width: 1400, height: 860 } })
await page.addInitScript({ content: `
  const d = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage') || Object.getOwnPropertyDescriptor(EventTarget.prototype, 'onmessage');
  const desc = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
  window.__sizes = {}; window.__msgs = 0;
  Object.defineProperty(Worker.prototype, 'onmessage', { set(f) { desc.set.call(this, (e) => { window.__msgs++; const m = e.data; if (m && m.type === 'state') for (const k in m.patch) { const s = window.__sizes; const v = m.patch[k]; let n = 0; try { n = JSON.stringify(v).length } catch {}; s[k] = (s[k] || 0) + n; if (k === 'requests') { const kind = Object.keys(v)[0] + ':' + (v.whole ? v.whole.length : v.add ? v.add.length : v.set.length); s.kinds = (s.kinds || []); s.kinds.push(kind) } } return f(e) }) }, get() { return desc.get.call(this) } });
` })
await page.goto(`${origin}/?deltascope-test`)
await page.waitForFunction(() => document.querySelector('[data-testid=request-row][data-state=finished]') !== null)
const N = Number(process.env.N ?? 10000)
writeFileSync('/tmp/hui/big.har', bigHar(N))
const cdp = await page.context().newCDPSession(page)
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start')
await page.setInputFiles('[data-testid=file-input]', '/tmp/hui/big.har')
await page.waitForFunction((n) => Number(document.querySelector('[data-testid=request-count]')?.textContent) >= n + 1, N, { timeout: 120000 })
await page.waitForTimeout(1000)
const { profile } = await cdp.send('Profiler.stop')
console.log(await page.evaluate(() => JSON.stringify({ msgs: (window as any).__msgs, sizes: (window as any).__sizes })))
const dt = profile.timeDeltas!
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const name = (id: number) => { const n = byId.get(id)!; return `${n.callFrame.functionName || '(anon)'}:${n.callFrame.lineNumber}` }
// stretches of non-idle samples
let best = { from: 0, to: 0, ms: 0 }; let cur = { from: 0, ms: 0 }
for (let i = 0; i < profile.samples!.length; i++) {
  const idle = name(profile.samples![i]!).startsWith('(idle)')
  if (idle) { cur = { from: i + 1, ms: 0 }; continue }
  cur.ms += (dt[i] ?? 0) / 1000
  if (cur.ms > best.ms) best = { from: cur.from, to: i, ms: cur.ms }
}
console.log('longest busy stretch', best.ms.toFixed(0), 'ms')
const incl = new Map<string, number>(); const self = new Map<string, number>()
for (let i = best.from; i <= best.to; i++) {
  const id = profile.samples![i]!; const d = (dt[i] ?? 0) / 1000
  self.set(name(id), (self.get(name(id)) ?? 0) + d)
  const seen = new Set<string>()
  for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) { const k = name(p); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + d) } }
}
console.log('self:\n' + [...self].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => `  ${v.toFixed(0)} ${k}`).join('\n'))
console.log('inclusive:\n' + [...incl].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => `  ${v.toFixed(0)} ${k}`).join('\n'))
await browser.close(); server.close()
