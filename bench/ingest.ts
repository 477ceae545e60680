// The page's end-to-end ingest against the core, in the same Chromium (issue 18), for
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
import { ROOT } from '../test/support/browser.js'

export interface IngestFigures {
  /** The worker path alone (workerIngest): file read → final reply on the UI side, the longest UI task, renderer growth. */
  worker: { ms: number; ratio: number; longest: number; tasks: number; exact: boolean; peakGrowth: number }
  name: string
  bytes: number
  frames: number
  /** Core merge() in the same browser (median), and reading the file there. */
  coreMs: number
  coreReadMs: number
  /** The page: file chosen → final reply shown. */
  pageMs: number | null
  ratio: number | null
  longestTaskMs: number
  longTasks: number
  /** Renderer resident set (bytes), all renderer processes: before (after a GC), peak during, after Clear and a GC. */
  rssBefore: number
  rssPeak: number
  rssAfterClear: number
  /** JS heap used (bytes) before, right after the ingest, after Clear (each after a GC). */
  heapBefore: number
  heapAfter: number
  heapAfterClear: number
  /** The page's reply agreed with the core's (frames, state, finish reason). */
  exact: boolean
}

/** A body of `frames` frames whose JSON does not parse, `size` bytes each (a 1 MB body of 100,000). */
export function brokenFrames(frames: number): string {
  // "data: {x1\n\n" and friends: ten bytes a frame, each an invalid JSON object
  const out: string[] = []
  for (let i = 0; i < frames; i++) out.push(`data: {x${i % 10}\n\n`)
  return out.join('')
}

const bundles = new Map<string, string>()
/** A module of this repository as one classic script (`globalName` set, or none for a worker). */
function bundleOf(entry: string, globalName?: string): string {
  let code = bundles.get(entry)
  if (code === undefined) {
    code = buildSync({
      entryPoints: [join(ROOT, entry)], bundle: true, format: 'iife', write: false, platform: 'browser', target: 'es2022', minify: true,
      ...(globalName ? { globalName } : {}),
    }).outputFiles[0]!.text
    bundles.set(entry, code)
  }
  return code
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** merge() of the file in a blank page of the same browser, `runs` times: the median. */
async function coreInBrowser(browser: Browser, file: string, runs: number): Promise<{ ms: number; readMs: number; frames: number }> {
  const page = await browser.newPage()
  try {
    await page.setContent('<input type="file" id="f">')
    await page.addScriptTag({ content: bundle() })
    await page.setInputFiles('#f', file)
    const times: number[] = []
    let readMs = 0
    let frames = 0
    for (let r = 0; r < runs; r++) {
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
      frames = one.frames
    }
    return { ms: median(times), readMs, frames }
  } finally {
    await page.close()
  }
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

/**
 * The worker path alone (panel/worker, not yet what the page's store reads): in a blank page,
 * the file's byte stream sent to the merging worker (bytes transferred), from the start to
 * the final reply rebuilt on the UI side; the longest task on the page's thread meanwhile.
 */
export async function workerIngest(browser: Browser, file: string, want: { frames: number; finish: string }): Promise<{ ms: number; longest: number; tasks: number; exact: boolean; peakGrowth: number }> {
  const page = await browser.newPage()
  try {
    await page.setContent('<input type="file" id="f">')
    await page.addScriptTag({ content: bundleOf('panel/worker/client.ts', 'DeltascopeWorkerClient') })
    await page.evaluate((code) => { (window as unknown as { __workerCode: string }).__workerCode = code }, bundleOf('panel/worker/merge.worker.ts'))
    await page.setInputFiles('#f', file)
    const pids = await rendererPids(browser)
    const before = total(pids, 'VmRSS')
    for (const pid of pids) writeFileSync(`/proc/${pid}/clear_refs`, '5')
    const run = await page.evaluate(async (want) => {
      type Client = { open(id: string, o: object): { push(d: Uint8Array, t: null, owned: boolean): void; end(): void; facts: { ended: boolean; frameCount: number } | null; reply: { choices: Array<{ finishReason: string | null }> } | null } ; onUpdate(f: (id: string) => void): () => void }
      const w = window as unknown as { __workerCode: string; DeltascopeWorkerClient: { createMergeClient(w: Worker): Client } }
      let longest = 0
      let tasks = 0
      const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) { longest = Math.max(longest, e.duration); tasks++ } })
      observer.observe({ type: 'longtask' })
      const worker = new Worker(URL.createObjectURL(new Blob([w.__workerCode], { type: 'text/javascript' })))
      const client = w.DeltascopeWorkerClient.createMergeClient(worker)
      const f = (document.getElementById('f') as HTMLInputElement).files![0]!
      const t0 = performance.now()
      const r = client.open('file', { url: 'https://api.openai.com/v1/chat/completions', contentType: 'text/event-stream' })
      const ended = new Promise<void>((resolve) => { client.onUpdate(() => { if (r.facts?.ended) resolve() }) })
      const reader = f.stream().getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        r.push(value, null, true)
      }
      r.end()
      await ended
      const ms = performance.now() - t0
      await new Promise((res) => setTimeout(res, 50))
      observer.disconnect()
      worker.terminate()
      return { ms, longest, tasks, exact: r.facts!.frameCount === want.frames && (r.reply!.choices[0]?.finishReason ?? '') === want.finish }
    }, want)
    return { ...run, peakGrowth: total(pids, 'VmHWM') - before }
  } finally {
    await page.close()
  }
}

/** One body: core merge() in the browser, then the page's ingest, memory around it, and Clear. */
export async function ingestBench(browser: Browser, page: Page, options: { name: string; body: string; coreRuns: number; timeoutMs: number; log: (s: string) => void; profile?: string | null }): Promise<IngestFigures> {
  const { name, body, log } = options
  const file = join(tmpdir(), `deltascope-bench-${name.replace(/\W+/g, '-')}.sse`)
  writeFileSync(file, body)
  const bytes = Buffer.byteLength(body)
  const reply = merge(body, { url: 'https://api.openai.com/v1/chat/completions', contentType: 'text/event-stream' })
  const want = { frames: reply.frameCount, finish: reply.choices[0]?.finishReason ?? '' }
  const core = await coreInBrowser(browser, file, options.coreRuns)
  if (core.frames !== want.frames) throw new Error(`core in the browser read ${core.frames} frames, Node ${want.frames}`)
  const worker = await workerIngest(browser, file, want)
  const pids = await rendererPids(browser)
  const heapBefore = await collect(page)
  const rssBefore = total(pids, 'VmRSS')
  // --profile=FILE: a CPU profile of the page's ingest, for Chrome DevTools' Performance panel
  const cdp = options.profile ? await page.context().newCDPSession(page) : null
  if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.start') }
  const run = await pageIngest(page, pids, file, want, options.timeoutMs)
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop')
    writeFileSync(options.profile!, JSON.stringify(profile))
    await cdp.detach()
    log(`  (CPU profile of the page's ingest written to ${options.profile})`)
  }
  const heapAfter = await collect(page)
  await page.click('[data-testid=clear]')
  await page.waitForFunction(() => document.querySelector('[data-testid=request-row]') === null)
  await new Promise((r) => setTimeout(r, 500))
  const heapAfterClear = await collect(page)
  await new Promise((r) => setTimeout(r, 500))
  const rssAfterClear = total(pids, 'VmRSS')
  const figures: IngestFigures = {
    worker: { ...worker, ratio: worker.ms / core.ms },
    name, bytes, frames: want.frames, coreMs: core.ms, coreReadMs: core.readMs,
    pageMs: run.ms, ratio: run.ms === null ? null : run.ms / core.ms,
    longestTaskMs: run.longest, longTasks: run.tasks,
    rssBefore, rssPeak: run.peak, rssAfterClear, heapBefore, heapAfter, heapAfterClear,
    exact: run.ms !== null,
  }
  const mb = (x: number) => `${(x / 1048576).toFixed(0)} MB`
  log(`  core merge() in the browser: ${core.ms.toFixed(0)} ms (reading the file there: ${core.readMs.toFixed(0)} ms)`)
  log(`  page, file chosen → final reply: ${run.ms === null ? 'never' : `${run.ms.toFixed(0)} ms (${figures.ratio!.toFixed(2)}× the core)`}; longest UI task ${run.longest.toFixed(0)} ms (${run.tasks} tasks over 50 ms)`)
  log(`  renderer: ${mb(rssBefore)} before, peak ${mb(run.peak)} (+${mb(run.peak - rssBefore)}, ${((run.peak - rssBefore) / bytes).toFixed(1)}× the body), ${mb(rssAfterClear)} after Clear (${(rssAfterClear / rssBefore).toFixed(2)}× the start)`)
  log(`  worker path alone (panel/worker, bench harness): ${worker.ms.toFixed(0)} ms (${(worker.ms / core.ms).toFixed(2)}× the core), longest UI task ${worker.longest.toFixed(0)} ms (${worker.tasks} over 50 ms), renderer +${mb(worker.peakGrowth)}, reply exact: ${worker.exact}`)
  log(`  JS heap: ${mb(heapBefore)} before, ${mb(heapAfter)} holding it, ${mb(heapAfterClear)} after Clear`)
  return figures
}
