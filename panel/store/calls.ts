// The store's calls, written once: each command (answered by nothing) and each question
// (answered later, when the store runs in a worker) with its arguments and its answer. From
// this map come the store's command methods (PanelStore extends StoreCommands), the messages
// between a worker's store and its mirror (remote/protocol.ts), the worker's dispatch table
// (remote/host.ts: an object typed by the map, so a missing or wrong handler does not compile)
// and the mirror's `ask` (remote/mirror.ts: the answer's type follows from the question's name).
// Types only: nothing here runs.

import type { Frame, Reply } from '../../src/library.js'
import type { FieldRef } from '../provenance.js'
import type { HeldSource } from './types.js'

/** A request as an export reads it, its body in one buffer (views of the merger's blocks would each clone a whole block). */
export interface SourceData extends Omit<HeldSource, 'chunks' | 'frames'> {
  body: Uint8Array
  /** Where each chunk ends in `body`, and when it arrived. */
  ends: number[]
  ts: Array<number | null>
}

/** The commands: what the UI tells the store to do, in order, answered by nothing. */
export interface CommandCalls {
  select: { args: [id: string | null]; answer: void }
  /** Selects a frame; `scrub` rewinds the reply to it (default: autoScrub). */
  selectFrame: { args: [seq: number | null, options?: { scrub?: boolean }]; answer: void }
  /** Moves the frame selection over visible frames (arrow keys); Infinity = last. */
  moveFrame: { args: [delta: number]; answer: void }
  /** Selects the next frame the search matched (delta 1) or the one before (-1), wrapping around. */
  searchStep: { args: [delta: number]; answer: void }
  moveRequest: { args: [delta: number]; answer: void }
  /** Shows the reply as it stood after frame `seq`; null shows the latest. */
  scrubTo: { args: [seq: number | null]; answer: void }
  /** Pins a request (the memory budget never releases it), or unpins it. */
  pin: { args: [id: string, on: boolean]; answer: void }
  clear: { args: []; answer: void }
  dismissNote: { args: [index: number]; answer: void }
  /** Removes every note (the Clear button; a navigation keeps them). */
  clearNotes: { args: []; answer: void }
}

/** The questions: reads of what only the store holds (bodies, frames), answered later by a worker's store. */
export interface QuestionCalls {
  /** One frame of the selected request, in full. */
  frame: { args: [seq: number]; answer: Frame | null }
  /** Selects the frame that produced a position of the shown reply; false when no frame did. */
  selectFrameAt: { args: [field: FieldRef, offset: number]; answer: boolean }
  /** A request as an export reads it. */
  load: { args: [id: string]; answer: SourceData | null }
  /** A request's frames, all of them (an export). */
  frames: { args: [id: string]; answer: Frame[] | null }
  /** The first `maxBytes` of a request's body. */
  head: { args: [id: string, maxBytes: number]; answer: Uint8Array | null }
  /** The body of a request's last `frames` frames, at most `maxBytes`. */
  tail: { args: [id: string, frames: number, maxBytes: number]; answer: Uint8Array | null }
  /** A request's reply rebuilt from its body whole. */
  rebuilt: { args: [id: string]; answer: Reply | null }
}

/** Every call, by name. */
export type StoreCalls = CommandCalls & QuestionCalls
export type CommandName = keyof CommandCalls
export type QuestionName = keyof QuestionCalls
export type CallArgs<K extends keyof StoreCalls> = StoreCalls[K]['args']
export type AnswerTo<K extends QuestionName> = QuestionCalls[K]['answer']

/** The store's command methods, as the map says them (PanelStore extends it). */
export type StoreCommands = { [K in CommandName]: (...args: CallArgs<K>) => void }
