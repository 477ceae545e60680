// Notes: what the user should know that is not a request (the shell's messages, a body over
// the cap, a merger that threw). Only the last MAX_NOTES are kept: a page that fails on every
// request must not grow the panel without end.

import { signal, type ReadonlySignal } from '@preact/signals'
import type { Note } from './types.js'

const MAX_NOTES = 50

export class Notes {
  private readonly notes = signal<Note[]>([])
  /** The notes, oldest first. */
  readonly list: ReadonlySignal<Note[]> = this.notes

  add(level: Note['level'], message: string): void {
    const list = [...this.notes.value, { level, message }]
    this.notes.value = list.length > MAX_NOTES ? list.slice(-MAX_NOTES) : list
  }

  dismiss(index: number): void {
    this.notes.value = this.notes.value.filter((_, i) => i !== index)
  }
}
