// "Compare with the page": what the inspected page shows for a reply, read through the
// shell's InspectedPage (DevTools only) once it has settled, and handed to the store as a
// comparison (the selected request) or as a verdict on a row (the toggle "Compare every
// stream with the page"). The selector the user picks or types is remembered per origin.
// Nothing from the page is rendered as HTML: its text goes to compareRenderedText only.

import { effect, signal } from '@preact/signals'
import { normaliseWhitespace } from '../src/debug/mapped-text.js'
import { markdownText } from '../src/debug/markdown-text.js'
import type { InspectedPage, PageElement, PageQuery, PanelShell } from './shell.js'
import type { PanelStore } from './store/index.js'

/** The element's text must not change for this long (ms) after the stream finished… */
export const SETTLE_QUIET_MS = 300
/** …but the comparison waits no longer than this (ms), then says the text was still changing. */
export const SETTLE_MAX_MS = 5000
const PROBE_EVERY_MS = 100
const PICK_POLL_MS = 150

const SELECTORS_KEY = 'deltascope.pageSelectors'
const EVERY_KEY = 'deltascope.pageEveryStream'

/** The page's element read once it settled, and whether it was still changing when the wait ended. */
export interface SettledRead {
  element: PageElement
  changing: boolean
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Reads the element once `done()` (the stream finished) and its text has not changed for
 * SETTLE_QUIET_MS; after SETTLE_MAX_MS reads it as it stands (`changing`). A string: why not.
 */
export async function readSettled(page: InspectedPage, query: PageQuery, done: () => boolean, now: () => number = Date.now): Promise<SettledRead | string> {
  const start = now()
  let digest: string | null = null
  let stableSince = start
  let at: PageElement | null = null
  let changing = false
  for (;;) {
    const probe = await page.probe(query)
    if (typeof probe === 'string') return probe
    const t = now()
    const d = probe.found ? probe.digest : ''
    if (d !== digest) { digest = d; stableSince = t }
    at = probe
    if (done() && probe.found && t - stableSince >= SETTLE_QUIET_MS) break
    if (t - start >= SETTLE_MAX_MS) { changing = probe.found && (t - stableSince < SETTLE_QUIET_MS || !done()); break }
    await sleep(PROBE_EVERY_MS)
  }
  // the element the probes watched (the one found by its text keeps its place)
  const exact = at.found && at.selector !== null ? { ...query, selector: at.selector, index: at.index } : query
  const element = await page.read(exact)
  return typeof element === 'string' ? element : { element, changing }
}

/** The reply's text as a page would show it: what the element is found by when no selector is known. */
export function expectedText(content: string): string {
  return normaliseWhitespace(markdownText(content)).text
}

/** The panel's "Compare with the page" controller: one per store. */
export class PageCompare {
  readonly origin = signal('')
  /** The selector remembered for this origin (picked or typed); null: found by the reply's text. */
  readonly selector = signal<string | null>(null)
  readonly status = signal('')
  readonly busy = signal(false)
  readonly picking = signal(false)
  readonly everyStream = signal(false)
  private readonly seen = new Set<string>()
  private queue: Promise<void> = Promise.resolve()

  constructor(readonly page: InspectedPage, private readonly store: PanelStore, private readonly storage: PanelShell['storage']) {
    this.everyStream.value = this.load(EVERY_KEY) === 'true'
    void this.refreshOrigin()
    effect(() => this.watch())
  }

  /** Asks the page its origin and takes the selector remembered for it. */
  async refreshOrigin(): Promise<string> {
    const origin = await this.page.origin()
    if (origin !== this.origin.peek()) {
      this.origin.value = origin
      this.selector.value = this.selectors()[origin] ?? null
    }
    return origin
  }

  /** Remembers (or forgets, with null or '') the selector for this origin. */
  setSelector(selector: string | null): void {
    const value = selector === null || selector.trim() === '' ? null : selector.trim()
    this.selector.value = value
    const all = this.selectors()
    if (value === null) delete all[this.origin.peek()]
    else all[this.origin.peek()] = value
    this.save(SELECTORS_KEY, JSON.stringify(all))
  }

  setEveryStream(on: boolean): void {
    this.everyStream.value = on
    this.save(EVERY_KEY, String(on))
  }

  /** Compares the request's reply with what the page shows (the selector's element, else the one found by the reply's text). */
  async compare(id: string, index: number | null = null): Promise<void> {
    if (this.busy.peek()) return
    this.busy.value = true
    this.status.value = 'Waiting for the page to settle…'
    try {
      await this.refreshOrigin()
      const view = this.store.selection.peek()
      const content = view && view.id === id ? view.latest.choices.find((c) => c.index === 0)?.content ?? '' : ''
      const selector = this.selector.peek()
      const read = await readSettled(this.page, { selector, index, expected: expectedText(content) }, () => this.finished(id))
      if (typeof read === 'string') { this.status.value = read; return }
      const { element, changing } = read
      if (!element.found || element.text === undefined) {
        this.status.value = selector === null
          ? 'No element of the page shows this reply\'s text: pick it, or type its selector.'
          : `No element of the page matches ${selector}.`
        return
      }
      const notes = describe(element, selector === null, changing)
      // what was compared is said with the comparison itself
      this.status.value = ''
      this.store.apply({ type: 'compare', id, against: { page: element.text, leaveOut: leftOut(element), label: `the page (${where(element)})`, notes } })
    } finally {
      this.busy.value = false
    }
  }

  /** The picker: the user hovers and clicks an element of the page (Escape cancels); its selector is remembered, and compared at once. */
  async pick(id: string | null): Promise<void> {
    if (this.picking.peek()) return
    const started = await this.page.pickStart()
    if (started !== true) { this.status.value = started; return }
    this.picking.value = true
    this.status.value = 'Pick the reply in the page: hover it and click (Escape cancels).'
    try {
      await this.refreshOrigin()
      for (;;) {
        await sleep(PICK_POLL_MS)
        if (!this.picking.peek()) return
        const state = await this.page.pickPoll()
        if (typeof state === 'string') { this.status.value = state; return }
        if (state.state === 'picking') continue
        if (state.state === 'picked') {
          this.setSelector(state.selector)
          this.status.value = `Picked ${state.selector}.`
          this.picking.value = false
          if (id !== null) await this.compare(id, state.index)
          return
        }
        this.status.value = 'Picking cancelled.'
        return
      }
    } finally {
      this.picking.value = false
    }
  }

  async cancelPick(): Promise<void> {
    this.picking.value = false
    await this.page.pickCancel()
    this.status.value = 'Picking cancelled.'
  }

  private finished(id: string): boolean {
    const row = this.store.requests.peek().find((r) => r.id === id)
    return row === undefined || row.state !== 'live'
  }

  /** The toggle: every stream that finishes while it is on gets its verdict against the newest element the selector matches. */
  private watch(): void {
    const rows = this.store.requests.value
    const on = this.everyStream.value
    for (const row of rows) {
      if (row.state === 'live' || this.seen.has(row.id)) continue
      this.seen.add(row.id)
      // streams that finished before the toggle was on are left alone: the page shows newer replies now
      if (!on || row.source === 'import') continue
      const id = row.id
      this.queue = this.queue.then(() => this.verdict(id)).catch(() => undefined)
    }
  }

  private async verdict(id: string): Promise<void> {
    await this.refreshOrigin()
    const selector = this.selector.peek()
    if (selector === null) return
    const read = await readSettled(this.page, { selector, expected: '' }, () => true)
    if (typeof read === 'string') {
      this.store.apply({ type: 'page-verdict', id, text: null, where: `the page could not be read (${read})` })
      return
    }
    const { element } = read
    this.store.apply({ type: 'page-verdict', id, text: element.found ? element.text ?? '' : null, leaveOut: leftOut(element), where: element.found ? where(element) : `no element matches ${selector}` })
  }

  private selectors(): Record<string, string> {
    try {
      const parsed: unknown = JSON.parse(this.load(SELECTORS_KEY) ?? '{}')
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
      return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'))
    } catch {
      return {}
    }
  }

  private load(key: string): string | null {
    try { return this.storage?.get(key) ?? null } catch { return null }
  }

  private save(key: string, value: string): void {
    try { this.storage?.set(key, value) } catch { /* storage refused: kept for this session */ }
  }
}

/** "div.reply > div.md, the last of 3" */
function where(e: PageElement): string {
  const sel = e.selector ?? 'an element'
  if (e.count <= 1) return sel
  return e.index === e.count - 1 ? `${sel}, the last of ${e.count}` : `${sel}, match ${e.index + 1} of ${e.count}`
}

/** The texts of the <details> blocks and buttons inside the element: not the reply (compareRenderedText's leaveOut). */
function leftOut(e: PageElement): string[] {
  return (e.parts ?? []).map((p) => p.text)
}

/** What was compared, in words. */
function describe(e: PageElement, foundByText: boolean, changing: boolean): string[] {
  const notes: string[] = []
  notes.push(foundByText ? `Compared the element whose text best matches the reply: ${where(e)}.` : `Compared ${where(e)}.`)
  if (changing) notes.push(`Its text was still changing after ${SETTLE_MAX_MS / 1000} s: compared as it stood.`)
  if (e.cut) notes.push('Its text was cut at 10 MB.')
  return notes
}

const controllers = new WeakMap<PanelStore, PageCompare>()

/** The store's controller, made on first use; null where the shell has no inspected page (the standalone page). */
export function pageCompareFor(store: PanelStore, shell: PanelShell): PageCompare | null {
  if (!shell.inspectedPage) return null
  let c = controllers.get(store)
  if (!c) {
    c = new PageCompare(shell.inspectedPage, store, shell.storage)
    controllers.set(store, c)
  }
  return c
}
