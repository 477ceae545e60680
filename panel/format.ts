// Display formatting: pure functions, no DOM. Captured values arrive as data and leave as
// strings that components render as text.

import { showInvisible } from './invisible.js'

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} kB`
  return `${(n / (1024 * 1024)).toFixed(1)} MB`
}

export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—'
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`
  // past an hour (a HAR recorded last year beside a paste of today), the two largest units
  const s = Math.round(ms / 1000)
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** Wall-clock time of day with milliseconds, local time: 14:03:07.412. */
export function formatClock(t: number | null): string {
  if (t === null || !Number.isFinite(t)) return '—'
  const d = new Date(t)
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

/** Time since the start of the request: +1234 ms. */
export function formatSince(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return ''
  return `+${Math.round(ms)} ms`
}

/** Path and query of a URL, for the request list; the input itself when it is not a URL. */
export function urlPath(url: string): string {
  try {
    const u = new URL(url)
    if (u.protocol === 'http:' || u.protocol === 'https:') return (u.pathname + u.search) || '/'
    return url
  } catch {
    return url
  }
}

export function urlHost(url: string): string {
  try {
    const u = new URL(url)
    return u.host
  } catch {
    return ''
  }
}

/** One line, at most `max` characters, line breaks, tabs and invisible characters made visible. */
export function oneLine(text: string, max = 160): string {
  const clipped = text.length > max * 2 ? text.slice(0, max * 2) : text
  const flat = showInvisible(clipped.replace(/\r\n|\r|\n/g, '⏎').replace(/\t/g, '⇥'))
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat
}

/** One formatter, made once: toLocaleString makes one per call (27 ms of a render in a profile). */
const COUNT = new Intl.NumberFormat('en')

/** A count with thousands separators: 100,000. */
export function formatCount(n: number): string {
  return COUNT.format(n)
}

export function plural(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`
}
