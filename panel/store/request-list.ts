// The request list and its filter. Requests are listed by start time, as in the Network
// panel (a stream that started first is listed first even if it finished last), then by
// arrival; one without a start time stays after the request that arrived before it. The filter box takes terms separated by spaces; a row
// must match every term, and a term starting with "-" excludes the rows that match the rest
// of it, as in the Network panel. A term matches anywhere in the row's method, URL, status,
// provider, transport, state and source, case-insensitively.

import { computed, type ReadonlySignal, type Signal } from '@preact/signals'
import type { Batches } from './batch.js'
import type { RequestModel } from './request-model.js'
import type { Recorder } from './recorder.js'
import type { RequestRow } from './types.js'

export interface RequestList {
  /** Every request, by start time, then arrival. */
  requests: ReadonlySignal<RequestRow[]>
  /** The requests the filter lets through. */
  rows: ReadonlySignal<RequestRow[]>
}

export function createRequestList(recorder: Recorder, batches: Batches, filter: Signal<string>): RequestList {
  const requests = computed<RequestRow[]>(() => {
    batches.version.value
    batches.actions.value
    return byStart(recorder.order.map((id) => recorder.models.get(id)!))
  })
  const rows = computed<RequestRow[]>(() => {
    const all = requests.value
    const terms = filter.value.toLowerCase().split(/\s+/).filter((t) => t.length > 0)
    if (terms.length === 0) return all
    return all.filter((r) => matches(r, terms))
  })
  return { requests, rows }
}

/** Whether a row passes every term (lower-case). */
export function matches(r: RequestRow, terms: readonly string[]): boolean {
  const hay = `${r.method} ${r.url} ${r.status ?? ''} ${r.provider ?? ''} ${r.transport ?? ''} ${r.state} ${r.source}`.toLowerCase()
  return terms.every((t) => (t.startsWith('-') && t.length > 1 ? !hay.includes(t.slice(1)) : hay.includes(t)))
}

/** Rows by start time, then arrival (`models` is in arrival order); a request without a start time takes the one of the request before it. */
function byStart(models: readonly RequestModel[]): RequestRow[] {
  let last = -Infinity
  const keyed = models.map((m, arrival) => {
    const t = m.request.startedAt
    if (Number.isFinite(t)) last = t
    return { start: Number.isFinite(t) ? t : last, arrival, row: m.row() }
  })
  keyed.sort((a, b) => a.start - b.start || a.arrival - b.arrival)
  return keyed.map((k) => k.row)
}
