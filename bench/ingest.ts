// The page's end-to-end ingest against the core, in the same Chromium (so the two are measured alike), for
// `npm run bench:ui`:
//   - core: the built library's merge() of the file's bytes, in a blank page of the same
//     browser (the bundle of src/library.ts, made here with esbuild); reading the file is
//     timed apart;
//   - page: the standalone page given the same file through its file input (setInputFiles),
//     from the input's change event to the final reply on screen (frame count, state and
//     finish reason as the core rebuilt them);
//   - the longest task on the page's UI thread meanwhile (PerformanceObserver 'longtask');
//   - the renderer's memory: its resident set read from /proc (the process found through
//     CDP SystemInfo.getProcessInfo), its peak over the ingest (VmHWM, reset before through
//     /proc/PID/clear_refs) against where it started after a garbage collection
//     (HeapProfiler.collectGarbage), and where it stands after Clear and a collection.
// Linux only (the /proc reads); the figures are printed and returned for the README's table.

import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { buildSync } from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { merge } from '../src/library.js'
import { ROOT, workerHeapsMB } from '../test/support/browser.js'

/** One body: the core in the same browser, and the page with its store in its worker (shipped) and on the UI thread (the baseline). */
export interface IngestFigures {
  name: string
  bytes: number
  frames: number
  /** Core merge() in the same browser (median), and reading the file there. */
  coreMs: number
  coreReadMs: number
  /** The core's own peak renderer growth (bytes): merge() of the file, and a merger keeping the body and its frames. */
  coreGrowth: { merge: number; merger: number }
  /** The page as shipped, its store in its worker (medians); `ratio`: its time over the core's (null: it never finished). */
  page: PageRun & { ratio: number | null }
  /** The same page with its store on the UI thread, measured alternately in the same run. */
  local: PageRun & { ratio: number | null }
}

/** A body of `frames` frames whose JSON does not parse, `size` bytes each (a 1 MB body of 100,000). */
export function brokenFrames(frames: number): string {
  // "data: {x1\n\n" and friends: ten bytes a frame, each an invalid JSON object
  const out: string[] = []
  for (let i = 0; i < frames; i++) out.push(`data: {x${i % 10}\n\n`)
  return out.join('')
}

let coreBundle: string | null = null
/** src/library.ts as one classic script defining `DeltascopeCore`. */
function bundle(): string {
  coreBundle ??= buildSync({
    entryPoints: [join(ROOT, 'src/library.ts')], bundle: true, format: 'iife', globalName: 'DeltascopeCore',
    write: false, platform: 'browser', target: 'es2022', minify: true,
  }).outputFiles[0]!.text
  return coreBundle
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) * 1024 : 0
}

/**
 * The renderer processes (the bench's page, and any spare Chromium keeps): their resident
 * sets are summed, since which one holds the page cannot be asked through CDP.
 */
async function rendererPids(browser: Browser): Promise<number[]> {
  const cdp = await browser.newBrowserCDPSession()
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo') as { processInfo: Array<{ type: string; id: number }> }
  await cdp.detach()
  const renderers = processInfo.filter((p) => p.type === 'renderer').map((p) => p.id)
  if (renderers.length === 0) throw new Error('no renderer process found')
  return renderers
}

const total = (pids: number[], field: 'VmRSS' | 'VmHWM') => pids.reduce((n, pid) => n + statusField(pid, field), 0)

async function collect(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.enable')
  await cdp.send('HeapProfiler.collectGarbage')
  await new Promise((r) => setTimeout(r, 300))
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('Performance.enable')
  const { metrics } = await cdp.send('Performance.getMetrics')
  await cdp.detach()
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0
}

/** The middle value; of an even count, the higher of the two middle ones (the less flattering). */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/**
 * merge() of the file in a blank page of the same browser, kept open: `run()` once more each
 * time it is called, so the core's runs are spread between the page's runs and see the same
 * machine (five runs back to back read 811 ms one run and 1,415 ms another, on the same code);
 * `finish()` measures the memory floors and closes the page.
 */
async function coreInBrowser(browser: Browser, file: string) {
  const page = await browser.newPage()
  await page.setContent('<input type="file" id="f">')
  await page.addScriptTag({ content: bundle() })
  await page.setInputFiles('#f', file)
  const times: number[] = []
  let readMs = 0
  const run = async () => {
    const one = await page.evaluate(async () => {
      const w = window as unknown as { DeltascopeCore: { merge(b: Uint8Array, o: object): { frameCount: number } } }
      const f = (document.getElementById('f') as HTMLInputElement).files![0]!
      const t0 = performance.now()
      const bytes = new Uint8Array(await f.arrayBuffer())
      const t1 = performance.now()
      const reply = w.DeltascopeCore.merge(bytes, { url: 'https://api.openai.com/v1/chat/completions', contentType: 'text/event-stream' })
      return { read: t1 - t0, merge: performance.now() - t1, frames: reply.frameCount }
    })
    times.push(one.merge)
    readMs = one.read
    return one
  }
  const finish = async (): Promise<{ ms: number; readMs: number; mergeGrowth: number; mergerGrowth: number; times: number[] }> => {
    try {
      // the memory floors, each from a collected start: merge() of the file's bytes (the Reply
      // only), and a merger that keeps the body and its frames, as the panel's store does
      const growth = async (keep: boolean) => {
        // the renderers now: the page runs' have come and gone since this page opened
        const pids = await rendererPids(browser)
        await collect(page)
        const before = total(pids, 'VmRSS')
        for (const pid of pids) writeFileSync(`/proc/${pid}/clear_refs`, '5')
        await page.evaluate(async (keep) => {
          type M = { push(b: Uint8Array): void; end(): unknown; frameCount: number }
          const w = window as unknown as { DeltascopeCore: { merge(b: Uint8Array, o: object): unknown; createMerger(o: object): M }; __kept?: unknown }
          const f = (document.getElementById('f') as HTMLInputElement).files![0]!
          const o = { url: 'https://api.openai.com/v1/chat/completions', contentType: 'text/event-stream' }
          if (!keep) { w.DeltascopeCore.merge(new Uint8Array(await f.arrayBuffer()), o); return }
          const m = w.DeltascopeCore.createMerger(o)
          const reader = f.stream().getReader()
          for (;;) { const p = await reader.read(); if (p.done) break; m.push(p.value) }
          m.end()
          w.__kept = m
        }, keep)
        return total(pids, 'VmHWM') - before
      }
      const mergeGrowth = await growth(false)
      const mergerGrowth = await growth(true)
      return { ms: median(times), readMs, mergeGrowth, mergerGrowth, times }
    } finally {
      await page.close()
    }
  }
  return { run, finish }
}

/** The page's ingest of `file` through its file input; the page is open at the standalone page, idle. */
async function pageIngest(page: Page, pids: number[], file: string, want: { frames: number; finish: string }, timeoutMs: number) {
  await page.evaluate(() => {
    const w = window as unknown as { __ingest: { longest: number; tasks: number; changeAt: number | null; observer: PerformanceObserver } }
    const state = { longest: 0, tasks: 0, changeAt: null as number | null, observer: null as unknown as PerformanceObserver }
    state.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) { state.longest = Math.max(state.longest, e.duration); state.tasks++ }
    })
    state.observer.observe({ type: 'longtask' })
    window.addEventListener('change', () => { state.changeAt ??= performance.now() }, { capture: true, once: true })
    w.__ingest = state
  })
  for (const pid of pids) writeFileSync(`/proc/${pid}/clear_refs`, '5') // resets VmHWM to the current resident set
  await page.setInputFiles('[data-testid=file-input]', file)
  const done = await page.evaluate(async ({ want, timeoutMs }) => {
    const w = window as unknown as { __ingest: { longest: number; tasks: number; changeAt: number | null; observer: PerformanceObserver } }
    const q = (s: string) => document.querySelector(s)
    const start = performance.now()
    let at: number | null = null
    while (performance.now() - start < timeoutMs) {
      await new Promise((r) => requestAnimationFrame(r))
      const selected = q('[data-testid=request-row][aria-selected=true]') as HTMLElement | null
      if (!selected || !(selected.dataset['id'] ?? '').startsWith('import')) continue
      if (
        q('[data-testid=frame-count]')?.textContent === String(want.frames) &&
        q('[data-testid=request-state]')?.textContent === 'finished' &&
        (q('[data-testid=finish-reason]')?.textContent ?? '') === want.finish
      ) { at = performance.now(); break }
    }
    // one more frame: a long task that ends the ingest is reported after it
    await new Promise((r) => requestAnimationFrame(r))
    await new Promise((r) => setTimeout(r, 50))
    const s = w.__ingest
    s.observer.disconnect()
    return { ms: at === null || s.changeAt === null ? null : at - s.changeAt, longest: s.longest, tasks: s.tasks }
  }, { want, timeoutMs })
  return { ...done, peak: total(pids, 'VmHWM') }
}

/** Where the page was and went: its time to the final reply, its UI thread, the renderer's memory. */
export interface PageRun {
  ms: number | null
  longestTaskMs: number
  longTasks: number
  /** Renderer resident set (bytes), all renderer processes: before (after a GC), peak during, after Clear and a GC. */
  rssBefore: number
  rssPeak: number
  /** The peak over the start (rssPeak − rssBefore): of the medians, the median of each run's. */
  rssGrowth: number
  rssAfterClear: number
  /** JS heap used (bytes) on the page's thread, before, holding the body, after Clear (each after a GC). */
  heapBefore: number
  heapAfter: number
  heapAfterClear: number
}

/** A fresh page at the standalone page (`url`), idle once its sample is loaded. */
async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } })
  await page.addInitScript({ content: 'window.__name = (f) => f' })
  await page.goto(url)
  await page.waitForFunction(() => document.querySelector('[data-testid=request-row][data-state=finished]') !== null)
  return page
}

/** The page at `url` given the file: to the final reply, then Clear; memory around both. */
async function pageRun(browser: Browser, url: string, file: string, want: { frames: number; finish: string }, timeoutMs: number, profile: string | null, log: (s: string) => void): Promise<PageRun> {
  const page = await openPage(browser, url)
  try {
    const pids = await rendererPids(browser)
    await workerHeapsMB(page) // collects the workers' garbage too
    const heapBefore = await collect(page)
    const rssBefore = total(pids, 'VmRSS')
    // --profile=FILE: a CPU profile of the page's ingest, for Chrome DevTools' Performance panel
    const cdp = profile ? await page.context().newCDPSession(page) : null
    if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.start') }
    const run = await pageIngest(page, pids, file, want, timeoutMs)
    if (cdp) {
      const { profile: p } = await cdp.send('Profiler.stop')
      writeFileSync(profile!, JSON.stringify(p))
      await cdp.detach()
      log(`  (CPU profile of the page's ingest written to ${profile})`)
    }
    const heapAfter = await collect(page)
    await page.click('[data-testid=clear]')
    await page.waitForFunction(() => document.querySelector('[data-testid=request-row]') === null)
    await new Promise((r) => setTimeout(r, 500))
    await workerHeapsMB(page)
    const heapAfterClear = await collect(page)
    await new Promise((r) => setTimeout(r, 500))
    return {
      ms: run.ms, longestTaskMs: run.longest, longTasks: run.tasks,
      rssBefore, rssPeak: run.peak, rssGrowth: run.peak - rssBefore, rssAfterClear: total(pids, 'VmRSS'), heapBefore, heapAfter, heapAfterClear,
    }
  } finally {
    await page.close()
  }
}

/**
 * One body: core merge() in the browser, then the page's ingest, alternately with its store on
 * the UI thread (the baseline: `deltascope-store=local`) and in its worker (what ships),
 * `pairs` times each; the core's merge() runs once before the pairs and once in each, in a page
 * of its own kept open; the medians.
 */
export async function ingestBench(browser: Browser, origin: string, options: { name: string; body: string; pairs: number; timeoutMs: number; log: (s: string) => void; profile?: string | null }): Promise<IngestFigures> {
  const { name, body, log } = options
  const file = join(tmpdir(), `deltascope-bench-${name.replace(/\W+/g, '-')}.sse`)
  writeFileSync(file, body)
  const bytes = Buffer.byteLength(body)
  const reply = merge(body, { url: 'https://api.openai.com/v1/chat/completions', contentType: 'text/event-stream' })
  const want = { frames: reply.frameCount, finish: reply.choices[0]?.finishReason ?? '' }
  const coreRuns = await coreInBrowser(browser, file)
  const first = await coreRuns.run()
  if (first.frames !== want.frames) throw new Error(`core in the browser read ${first.frames} frames, Node ${want.frames}`)
  const runs: Record<'local' | 'worker', PageRun[]> = { local: [], worker: [] }
  for (let i = 0; i < options.pairs; i++) {
    await coreRuns.run()
    for (const variant of ['local', 'worker'] as const) {
      const url = `${origin}/?deltascope-test${variant === 'local' ? '&deltascope-store=local' : ''}`
      const last = i === options.pairs - 1 && variant === 'worker'
      runs[variant].push(await pageRun(browser, url, file, want, options.timeoutMs, last ? options.profile ?? null : null, log))
    }
  }
  const core = await coreRuns.finish()
  const mid = (variant: 'local' | 'worker'): PageRun => {
    const list = runs[variant]
    const m = (f: (r: PageRun) => number) => median(list.map(f))
    const times = list.map((r) => r.ms)
    return {
      ms: times.includes(null) ? null : median(times as number[]),
      longestTaskMs: m((r) => r.longestTaskMs), longTasks: m((r) => r.longTasks),
      rssBefore: m((r) => r.rssBefore), rssPeak: m((r) => r.rssPeak), rssGrowth: m((r) => r.rssGrowth), rssAfterClear: m((r) => r.rssAfterClear),
      heapBefore: m((r) => r.heapBefore), heapAfter: m((r) => r.heapAfter), heapAfterClear: m((r) => r.heapAfterClear),
    }
  }
  const withRatio = (r: PageRun) => ({ ...r, ratio: r.ms === null ? null : r.ms / core.ms })
  const page = mid('worker')
  const local = mid('local')
  const figures: IngestFigures = {
    name, bytes, frames: want.frames, coreMs: core.ms, coreReadMs: core.readMs, coreGrowth: { merge: core.mergeGrowth, merger: core.mergerGrowth },
    page: withRatio(page), local: withRatio(local),
  }
  const mb = (x: number) => `${(x / 1048576).toFixed(0)} MB`
  const line = (label: string, r: PageRun) => {
    log(`  ${label}: file chosen → final reply ${r.ms === null ? 'never' : `${r.ms.toFixed(0)} ms (${(r.ms / core.ms).toFixed(2)}× the core)`}; longest UI task ${r.longestTaskMs.toFixed(0)} ms (${r.longTasks} over 50 ms)`)
    log(`    renderer ${mb(r.rssBefore)} before, peak +${mb(r.rssGrowth)} (${(r.rssGrowth / bytes).toFixed(2)}× the body), ${(r.rssAfterClear / r.rssBefore).toFixed(2)}× the start after Clear; page JS heap ${mb(r.heapAfter)} holding it`)
  }
  log(`  core merge() in the browser: ${core.ms.toFixed(0)} ms, the median of ${core.times.length} runs between the page's (${core.times.map((t) => t.toFixed(0)).join(', ')}; reading the file there: ${core.readMs.toFixed(0)} ms); medians of ${options.pairs} page runs each`)
  log(`  the core's own renderer growth: merge() +${mb(core.mergeGrowth)} (${(core.mergeGrowth / bytes).toFixed(1)}× the body); a merger keeping body and frames +${mb(core.mergerGrowth)} (${(core.mergerGrowth / bytes).toFixed(1)}×)`)
  line('page, store on the UI thread (baseline)', local)
  line('page, store in its worker (shipped)', page)
  // each run, for the spread behind the medians (the machine moves ±15% from one minute to the next)
  const each = (r: PageRun) => `${r.ms === null ? 'never' : `${(r.ms / core.ms).toFixed(2)}×`} ${r.longestTaskMs.toFixed(0)} ms ${(r.rssGrowth / bytes).toFixed(2)}×`
  log(`    each run in its worker (time, longest UI task, growth): ${runs.worker.map(each).join('; ')}`)
  return figures
}
