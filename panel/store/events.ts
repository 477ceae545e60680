// Events, applied to a store from outside it: what the shell reports (CaptureEvent) and what
// the panel itself asks (PanelEvent adds `force`). One function reads them all, so a reader
// sees in one place what each event does; the store's parts (panel/store/) only do it.

import { batch } from '@preact/signals'
import { readBody } from './body-reader.js'
import { pageVerdict } from './comparison.js'
import type { LocalPanelStore } from './panel-store.js'
import type { PanelEvent } from './types.js'

export type { PanelEvent } from './types.js'

export function applyEvent(store: LocalPanelStore, event: PanelEvent): void {
  const { batches, recorder, selection, notes, live, comparisons } = store.parts
  if (batches.disposed) return
  switch (event.type) {
    case 'request': {
      recorder.request(event.request)
      // a URL the user saved rules for is read with them from its first byte
      const rules = store.rules.ruleFor(event.request.url)
      if (rules) recorder.force(event.request.id, { rules })
      return
    }
    case 'chunk':
      recorder.chunk(event.id, event.data, event.t, { continues: event.continues === true })
      return
    case 'body':
      void readBody(recorder, event.id, event.body)
      return
    case 'finished':
    case 'cancelled':
      recorder.close(event)
      return
    case 'navigated':
      if (!store.preserveLog.value) store.clear()
      return
    case 'note':
      notes.add(event.level, event.message)
      return
    case 'live':
      live.value = { enabled: event.enabled, message: event.message ?? null }
      return
    case 'select':
      store.select(event.id)
      return
    case 'removed':
      comparisons.forget(event.id)
      if (!recorder.remove(event.id)) return
      if (selection.id.peek() === event.id) store.select(null)
      return
    case 'force':
      comparisons.forget(event.id)
      if (!recorder.force(event.id, event.forced)) return
      // the frames were read again: shown at once, before the batch, from no frame selected
      batch(() => {
        selection.restarted(event.id)
        batches.actions.value++
      })
      return
    case 'compare': {
      const made = comparisons.compare(event.id, event.against)
      if (typeof made === 'string') { notes.add('warning', made); return }
      // the first difference's frame is selected (the list scrolls to it), the reply left as it stands
      const first = made.result.differences.find((d) => d.frame !== null)
      batch(() => {
        if (selection.id.peek() !== event.id) store.select(event.id)
        if (first) store.selectFrame(first.frame, { scrub: false })
        batches.actions.value++
      })
      return
    }
    case 'compare-clear':
      comparisons.clear()
      return
    case 'page-verdict': {
      const source = recorder.get(event.id)
      if (source) recorder.setPageVerdict(event.id, pageVerdict(source, event.text, event.where, event.leaveOut))
      return
    }
    case 'search':
      store.search.value = event.query
      return
    case 'search-step':
      store.searchStep(event.delta)
      return
  }
}
