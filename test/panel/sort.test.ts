// The request list's column sort and widths (panel/store/sort.ts, over panel/request-columns.tsx): the rules a click on a
// header follows, and what survives in storage.

import { describe, expect, it } from 'vitest'
import { REQUEST_COLUMNS, requestColumn } from '../../panel/request-columns.js'
import {
  ariaSort, clampWidth, COLUMN_GAP, columnsFit, createColumnWidths, defaultWidths, gridColumns, nextSort, parseWidths, sortRows, START_ORDER,
  type RequestSort,
} from '../../panel/store/sort.js'
import type { RequestRow } from '../../panel/store/types.js'

function row(id: string, over: Partial<RequestRow> = {}): RequestRow {
  // the fields the sort reads, and the rest a row has (cast: the row type may grow)
  return {
    id, method: 'POST', url: `https://x.test/${id}`, path: `/${id}`, host: 'x.test', status: 200, provider: 'openai-chat',
    transport: 'sse', frames: 1, broken: 0, streamErrors: 0, bytes: 10, duration: 5, startedAt: 0, state: 'finished',
    cancelReason: null, source: 'live', done: true, truncated: false, forced: {}, incomplete: null, partialFrame: null, ...over,
  } as RequestRow
}
const ids = (rows: readonly RequestRow[]) => rows.map((r) => r.id)
const by = (key: RequestSort['key'], direction: RequestSort['direction'] = 'ascending'): RequestSort => ({ key, direction })

// in start order, as the store hands them over
const ROWS = [
  row('a', { status: 200, frames: 30, bytes: 900, duration: 40, provider: 'ollama', state: 'finished' }),
  row('b', { status: 429, frames: 2, bytes: 100, duration: null, provider: 'anthropic', state: 'live' }),
  row('c', { status: null, frames: 30, bytes: 5000, duration: 7, provider: null, state: 'cancelled' }),
  row('d', { status: 200, frames: 0, bytes: 0, duration: 1200, provider: 'gemini', state: 'finished' }),
]

describe('request list sort', () => {
  it('keeps start order by default, and returns the rows untouched', () => {
    expect(sortRows(ROWS, START_ORDER)).toBe(ROWS)
  })

  it('reverses start order when the Start column is sorted descending', () => {
    expect(ids(sortRows(ROWS, by('start', 'descending')))).toEqual(['d', 'c', 'b', 'a'])
  })

  it('sorts by status, equal statuses in start order, an unknown status last', () => {
    expect(ids(sortRows(ROWS, by('status')))).toEqual(['a', 'd', 'b', 'c'])
  })

  it('puts rows without a value last in descending order too', () => {
    expect(ids(sortRows(ROWS, by('status', 'descending')))).toEqual(['b', 'a', 'd', 'c'])
    expect(ids(sortRows(ROWS, by('duration', 'descending')))).toEqual(['d', 'a', 'c', 'b'])
  })

  it('sorts frames numerically and keeps start order between equal counts in both directions', () => {
    expect(ids(sortRows(ROWS, by('frames')))).toEqual(['d', 'b', 'a', 'c'])
    expect(ids(sortRows(ROWS, by('frames', 'descending')))).toEqual(['a', 'c', 'b', 'd'])
  })

  it('sorts size by bytes and duration by milliseconds, not by their text', () => {
    expect(ids(sortRows(ROWS, by('size')))).toEqual(['d', 'b', 'a', 'c'])
    expect(ids(sortRows(ROWS, by('duration')))).toEqual(['c', 'a', 'd', 'b'])
  })

  it('sorts provider and state by name', () => {
    expect(ids(sortRows(ROWS, by('provider')))).toEqual(['b', 'd', 'a', 'c'])
    expect(ids(sortRows(ROWS, by('state')))).toEqual(['c', 'a', 'd', 'b'])
  })

  it('a click sorts a new column ascending, a second click descending, a third goes back to start order', () => {
    const first = nextSort(START_ORDER, 'size')
    expect(first).toEqual(by('size'))
    const second = nextSort(first, 'size')
    expect(second).toEqual(by('size', 'descending'))
    expect(nextSort(second, 'size')).toEqual(START_ORDER)
    expect(nextSort(second, 'frames')).toEqual(by('frames'))
  })

  it('a click on Start flips start order between ascending and descending', () => {
    expect(nextSort(START_ORDER, 'start')).toEqual(by('start', 'descending'))
    expect(nextSort(by('start', 'descending'), 'start')).toEqual(START_ORDER)
  })

  it('gives aria-sort to the sorted column only', () => {
    expect(ariaSort(START_ORDER, 'start')).toBe('ascending')
    expect(ariaSort(START_ORDER, 'frames')).toBe('none')
    expect(ariaSort(by('frames', 'descending'), 'frames')).toBe('descending')
  })
})

describe('request list column widths', () => {
  // the widths and minimums come from the column list (panel/request-columns.tsx), so a column
  // added or resized there needs no change here
  const px = (widths: readonly number[]) => widths.map((w) => `minmax(0, ${w}px)`).join(' ')
  const listed = REQUEST_COLUMNS.map((c) => c.width)
  const size = requestColumn('size')
  const status = requestColumn('status')

  it('starts from the default widths, in the list order', () => {
    expect(Object.keys(defaultWidths())).toEqual(REQUEST_COLUMNS.map((c) => c.key))
    expect(Object.values(defaultWidths())).toEqual(listed)
    expect(gridColumns(defaultWidths())).toBe(px(listed))
    const at = REQUEST_COLUMNS.findIndex((c) => c.key === 'size')
    expect(gridColumns({ ...defaultWidths(), size: 90 })).toBe(px(listed.map((w, i) => (i === at ? 90 : w))))
  })

  it('lines the columns up when their widths and gaps fit the row, and not when they do not', () => {
    // the widths and a gap of 4 px between each two
    const room = listed.reduce((a, b) => a + b, 0) + 4 * (listed.length - 1)
    expect(COLUMN_GAP).toBe(4)
    expect(columnsFit(defaultWidths(), room)).toBe(true)
    expect(columnsFit(defaultWidths(), room - 1)).toBe(false)
    expect(columnsFit({ ...defaultWidths(), provider: requestColumn('provider').width - 30 }, room - 30)).toBe(true)
    expect(columnsFit(defaultWidths(), Infinity)).toBe(true)
  })

  it('keeps a width within the column minimum and 600 px, rounded', () => {
    expect(clampWidth('status', status.min - 1)).toBe(status.min)
    expect(clampWidth('status', 5000)).toBe(600)
    expect(clampWidth('size', size.min + 0.6)).toBe(size.min + 1)
  })

  it('reads stored widths, clamps them, and ignores what it cannot read', () => {
    expect(parseWidths('{"size":120,"status":1,"frames":"wide","nope":5}')).toEqual({ ...defaultWidths(), size: 120, status: status.min })
    expect(parseWidths('not json')).toEqual(defaultWidths())
    expect(parseWidths('null')).toEqual(defaultWidths())
    expect(parseWidths(null)).toEqual(defaultWidths())
  })

  it('remembers a change through the storage, and a refused write keeps it in memory', () => {
    const stored = new Map<string, string>()
    const widths = createColumnWidths({ get: (k) => stored.get(k) ?? null, set: (k, v) => { stored.set(k, v) } })
    expect(stored.size).toBe(0)
    widths.value = { ...widths.value, size: 90 }
    expect(JSON.parse(stored.get('deltascope.requests.columns')!)).toEqual({ ...defaultWidths(), size: 90 })
    expect(createColumnWidths({ get: (k) => stored.get(k) ?? null, set: () => undefined }).value.size).toBe(90)

    const refusing = createColumnWidths({ get: () => { throw new Error('denied') }, set: () => { throw new Error('full') } })
    refusing.value = { ...refusing.value, state: 99 }
    expect(refusing.value.state).toBe(99)
  })
})
