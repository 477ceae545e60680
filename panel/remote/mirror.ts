// The panel's store as the UI thread sees it when the store runs in a worker (host.ts): the
// same PanelStore the components use, its signals following the worker's `state` messages,
// its commands and events sent there in order. What needs a body is asked for: the rows in
// view come with every change once asked for (the tail of the list while it is followed),
// a frame or an export is answered later. Settings the user changes here (filter, sort,
// search, …) are this side's and sent on; the stream rules and the redaction list stay
// here too, with the shell's storage.

import { batch, computed, effect, signal } from '@preact/signals'
import type { Frame } from '../../src/library.js'
import type { Progress } from '../store/feed.js'
import type { PanelShell } from '../shell.js'
import { applySavedRules, type PanelStore } from '../store/index.js'
import type { ComparisonView } from '../store/comparison.js'
import type { PanelEvent } from '../store/events.js'
import type { ImportJob, ImportOptions, ImportRead } from '../store/import.js'
import { DEFAULT_MEMORY_BUDGET } from '../store/budget.js'
import { createRedactionSettings } from '../store/redaction.js'
import { createStreamRules } from '../store/rules.js'
import { START_ORDER, type RequestSort } from '../store/sort.js'
import type { ExportSource, FrameItem, LiveState, Note, RequestRow, SelectionView } from '../store/types.js'
import { applyList } from './list-patch.js'
import type { CallArgs, CommandName, SourceData, StoreCommands } from '../store/calls.js'
import { KEPT_FIELDS, type Answer, type Ask, type Command, type FromStore, type Port, type Question, type SelectionPatch, type StatePatch, type ToStore, type UiSettings } from './protocol.js'
import { applyPatch } from './reply-patch.js'

/** Rows asked for beyond the ones in view, on each side (a scroll of a few rows needs no new window). */
const WINDOW_MARGIN = 60

export interface StoreMirror extends PanelStore {
  /** The worker failed (it could not be loaded, or it threw): said where the user looks. */
  failed(message: string): void
  /** The worker takes the capture events from `source` itself (the shell's `workerEvents`). */
  takeEvents(source: unknown): void
}

export interface MirrorOptions {
  /**
   * Runs the application of the changes that arrived, once: requestAnimationFrame in a
   * browser, so the UI changes once per frame however the worker's updates fall between them.
   */
  schedule?: (apply: () => void) => void
}

const defaultSchedule = (apply: () => void) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(apply)
  else setTimeout(apply, 0)
}

export function createStoreMirror(
  port: Port<FromStore, ToStore>,
  shell?: Pick<PanelShell, 'kind' | 'live' | 'redactionStore' | 'rulesStore'> | null,
  options: MirrorOptions = {},
): StoreMirror {
  const schedule = options.schedule ?? defaultSchedule
  const post = (message: ToStore, transfer: Transferable[] = []) => port.postMessage(message, transfer)
  const version = signal(0)
  const requests = signal<RequestRow[]>([])
  const rowIds = signal<string[]>([])
  const rows = computed(() => {
    const byId = new Map(requests.value.map((r) => [r.id, r]))
    return rowIds.value.flatMap((id) => byId.get(id) ?? [])
  })
  const notes = signal<Note[]>([])
  const live = signal<LiveState>({ enabled: initialLive(shell), message: null })
  const selectedId = signal<string | null>(null)
  const selectedFrame = signal<number | null>(null)
  const selection = signal<SelectionView | null>(null)
  const comparison = signal<ComparisonView | null>(null)
  /** The rows in view as last sent, for the selection as it is. */
  const window = signal<{ from: number; items: FrameItem[] } | null>(null)
  /** Bumped when an answer arrives that a render may be waiting for (a frame). */
  const answers = signal(0)

  // this side's settings: the worker's copy follows each change
  const settings = {
    filter: signal(''),
    sort: signal<RequestSort>(START_ORDER),
    search: signal(''),
    hideDimmed: signal(false),
    preserveLog: signal(false),
    memoryBudget: signal(DEFAULT_MEMORY_BUDGET),
  }
  const stopSettings = (Object.keys(settings) as Array<keyof UiSettings>).map((name) =>
    effect(() => { post({ type: 'set', settings: { [name]: settings[name].value } }) }))
  // the shell's live capture as it stands now: the worker's store has no shell to ask
  if (live.peek().enabled) post({ type: 'event', event: { type: 'live', enabled: true } })

  // questions and their answers
  let calls = 0
  const waiting = new Map<number, (value: Answer) => void>()
  // the one place the answer's type is trusted: the host answers `call` with its question's handler (a QuestionHandlers table)
  const ask: Ask = (name, ...args) => {
    const call = ++calls
    return new Promise((resolve) => {
      waiting.set(call, resolve as (value: Answer) => void)
      post({ type: 'ask', call, question: { name, args } as Question })
    })
  }
  const command = <K extends CommandName>(name: K, ...args: CallArgs<K>) => post({ type: 'command', command: { name, args } as Command })
  /** The store's commands, each sent on as it is. */
  const commands: StoreCommands = {
    select: (id) => command('select', id),
    selectFrame: (seq, options) => command('selectFrame', seq, options),
    moveFrame: (delta) => command('moveFrame', delta),
    searchStep: (delta) => command('searchStep', delta),
    moveRequest: (delta) => command('moveRequest', delta),
    scrubTo: (seq) => command('scrubTo', seq),
    pin: (id, on) => command('pin', id, on),
    clear: () => command('clear'),
    dismissNote: (index) => command('dismissNote', index),
    clearNotes: () => command('clearNotes'),
  }

  /** Frames of the selected request as read (a new request, or a forced reading, starts over). */
  let frames = { key: '', bySeq: new Map<number, Frame | null>() }
  const frameKey = (view: SelectionView | null) => (view ? `${view.id}\u0000${JSON.stringify(view.row.forced)}` : '')
  const frameCache = () => {
    const key = frameKey(selection.peek())
    if (frames.key !== key) frames = { key, bySeq: new Map() }
    return frames
  }
  const loadFrame = async (seq: number): Promise<Frame | null> => {
    const cache = frameCache()
    if (cache.bySeq.has(seq)) return cache.bySeq.get(seq)!
    const frame = await ask('frame', seq)
    if (frames === cache) {
      cache.bySeq.set(seq, frame)
      answers.value++
    }
    return frame
  }

  /** The window last asked for, not to ask for it again before it arrives. */
  let asked = { from: -1, to: -1, tail: false }
  const askWindow = (from: number, to: number, count: number) => {
    // the end of the list in view: its tail is asked for, and comes with each batch that grows it
    const tail = to >= count
    const want = tail
      ? { from: 0, to: to - from + 2 * WINDOW_MARGIN, tail }
      : { from: Math.max(0, from - WINDOW_MARGIN), to: to + WINDOW_MARGIN, tail }
    if (want.from === asked.from && want.to === asked.to && want.tail === asked.tail) return
    asked = want
    post({ type: 'window', ...want })
  }

  const applySelection = (prev: SelectionView | null, p: SelectionPatch): SelectionView => {
    const same = prev !== null && prev.id === p.id
    const latest = applyPatch(same ? prev.latest : null, p.latest)
    const { latest: _l, reply: replyPatch, diagnostics, streamErrors, ...rest } = p
    // the large fields are absent when unchanged, which they can only be for the same request
    const kept = same ? Object.fromEntries(KEPT_FIELDS.map((field) => [field, prev[field]])) : {}
    return {
      ...(kept as Pick<SelectionView, (typeof KEPT_FIELDS)[number]>),
      ...rest,
      latest,
      reply: replyPatch === null ? latest : applyPatch(null, replyPatch),
      diagnostics: applyList(same ? prev.diagnostics : [], diagnostics),
      streamErrors: applyList(same ? prev.streamErrors : [], streamErrors),
    }
  }

  /** Changes arrived, applied together at the next scheduled run. */
  let arrived: StatePatch[] = []
  const applyArrived = () => {
    const patches = arrived
    arrived = []
    batch(() => {
      for (const patch of patches) applyState(patch)
      version.value++
    })
  }

  const applyState = (patch: StatePatch) => {
    if (patch.requests) requests.value = applyList(requests.peek(), patch.requests)
    if (patch.rows) rowIds.value = patch.rows
    if (patch.notes !== undefined) notes.value = patch.notes
    if (patch.live !== undefined) live.value = patch.live
    if (patch.selectedId !== undefined) selectedId.value = patch.selectedId
    if (patch.selectedFrame !== undefined) selectedFrame.value = patch.selectedFrame
    if (patch.comparison !== undefined) comparison.value = patch.comparison
    if (patch.selection !== undefined) {
      const prev = selection.peek()
      const next = patch.selection === null ? null : applySelection(prev, patch.selection)
      // the last frame of a stream still arriving may be read again (dispatched at its end)
      if (prev && next && prev.id === next.id && (prev.frameCount !== next.frameCount || prev.row.state !== next.row.state)) frames.bySeq.delete(prev.frameCount - 1)
      selection.value = next
    }
    if (patch.window) {
      window.value = patch.window
      asked = { from: -1, to: -1, tail: false }
    }
  }

  // imports run in the worker: what each says back, by job
  let jobs = 0
  const importing = new Map<number, { read: (r: ImportRead) => void; progress?: (p: Progress) => void; done: () => void }>()
  const importFiles = (files: readonly File[], options: ImportOptions = {}): ImportJob => {
    const job = ++jobs
    let read!: (r: ImportRead) => void
    let done!: () => void
    const job$ = {
      read: new Promise<ImportRead>((resolve) => { read = resolve }),
      finished: new Promise<void>((resolve) => { done = resolve }),
      cancel: () => post({ type: 'import-cancel', job }),
    }
    importing.set(job, { read, done, ...(options.onProgress ? { progress: options.onProgress } : {}) })
    post({ type: 'import', job, files: [...files], asImport: options.asImport ?? false })
    return job$
  }

  port.onmessage = ({ data: msg }) => {
    switch (msg.type) {
      case 'state':
        if (arrived.length === 0) schedule(applyArrived)
        arrived.push(msg.patch)
        return
      case 'answer': {
        const resolve = waiting.get(msg.call)
        waiting.delete(msg.call)
        resolve?.(msg.value)
        return
      }
      case 'import-read': importing.get(msg.job)?.read(msg.read); return
      case 'import-progress': importing.get(msg.job)?.progress?.(msg.progress); return
      case 'import-done': {
        const job = importing.get(msg.job)
        importing.delete(msg.job)
        // a job that found nothing, or failed, is read and done at once
        job?.read({ count: 0, warnings: [] })
        job?.done()
        return
      }
    }
  }

  const sourceOf = (id: string, data: SourceData): ExportSource => {
    const { body, ends, ts, ...rest } = data
    const chunks = ends.map((end, i) => ({ data: body.subarray(i === 0 ? 0 : ends[i - 1]!, end), t: ts[i]! }))
    return { ...rest, chunks, frames: async () => (await ask('frames', id)) ?? [] }
  }

  const store: StoreMirror = {
    apply(event: PanelEvent) {
      if (event.type === 'search') { settings.search.value = event.query; return }
      if (event.type === 'search-step') { commands.searchStep(event.delta); return }
      if (event.type === 'chunk' && typeof event.data !== 'string' && event.data.byteLength !== event.data.buffer.byteLength) {
        // a view of a larger buffer (a file's piece cut in slices) would be cloned with all of
        // that buffer: its own bytes are copied once and moved to the worker instead
        const own = event.data.slice()
        post({ type: 'event', event: { ...event, data: own } }, [own.buffer])
        return
      }
      post({ type: 'event', event })
      // a URL the user saved rules for is read with them from its first byte
      const rules = event.type === 'request' ? store.rules.ruleFor(event.request.url) : null
      if (rules && event.type === 'request') post({ type: 'event', event: { type: 'force', id: event.request.id, forced: { rules } } })
    },
    version,
    requests,
    rows,
    ...settings,
    ...commands,
    notes,
    live,
    selectedId,
    selectedFrame,
    selection,
    comparison,
    frameItems(from, to) {
      const w = window.value
      const view = selection.peek()
      const out: Array<FrameItem | null> = []
      for (let i = from; i < to; i++) out.push(w && i >= w.from && i < w.from + w.items.length ? w.items[i - w.from]! : null)
      if (view && out.includes(null)) askWindow(from, to, view.itemCount)
      return out
    },
    frame(seq) {
      answers.value // a render that read a frame not here yet runs again when it arrives
      const cache = frameCache()
      if (cache.bySeq.has(seq)) return cache.bySeq.get(seq)!
      void loadFrame(seq)
      return null
    },
    loadFrame,
    selectFrameAt: (field, offset) => ask('selectFrameAt', field, offset),
    recordings: {
      load: async (id) => {
        const data = await ask('load', id)
        return data && sourceOf(id, data)
      },
      head: (id, maxBytes) => ask('head', id, maxBytes),
      tail: (id, frames, maxBytes) => ask('tail', id, frames, maxBytes),
      rebuilt: (id) => ask('rebuilt', id),
    },
    redaction: createRedactionSettings(shell?.redactionStore),
    rules: createStreamRules(shell?.rulesStore),
    failed(message) {
      notes.value = [...notes.peek(), { level: 'warning', message }]
    },
    importFiles,
    takeEvents(source) {
      post({ type: 'connect', source })
    },
    dispose() {
      for (const stop of stopSettings) stop()
      post({ type: 'dispose' })
      port.onmessage = null
    },
  }
  applySavedRules(store)
  return store
}

function initialLive(shell: Pick<PanelShell, 'live'> | null | undefined): boolean {
  try {
    return shell?.live?.enabled?.() ?? false
  } catch {
    return false
  }
}
