// Notes: what the user should know that is not a request (the shell's messages, a body over
// the cap, a merger that threw). A message said again is one note with a count (a page that
// fails on every request says it once, not 8 bars at once), and only the last MAX_NOTES
// different ones are kept.

import { signal, type ReadonlySignal } from '@preact/signals'
import type { Note } from './types.js'

const MAX_NOTES = 50

export class Notes {
  private readonly notes = signal<Note[]>([])
  /** The notes, oldest first (a note said again moves last). */
  readonly list: ReadonlySignal<Note[]> = this.notes

  add(level: Note['level'], message: string): void {
    const list = this.notes.value
    const same = list.findIndex((n) => n.message === message && n.level === level)
    const count = same < 0 ? 1 : (list[same]!.count ?? 1) + 1
    // count only when said more than once: a note said once is { level, message }
    const note: Note = count === 1 ? { level, message } : { level, message, count }
    const next = [...list.filter((_, i) => i !== same), note]
    this.notes.value = next.length > MAX_NOTES ? next.slice(-MAX_NOTES) : next
  }

  dismiss(index: number): void {
    this.notes.value = this.notes.value.filter((_, i) => i !== index)
  }

  clear(): void {
    if (this.notes.value.length > 0) this.notes.value = []
  }
}
