// The line that stands for the info notes of one code in Problems (issue 33): what they say
// together, with their count ("41 frames arrived split across network reads"). Info notes are
// facts about the capture or the wire, not problems: one line per code, opened on demand.

import type { DiagnosticCode } from '../src/library.js'
import { formatCount } from './format.js'

const LABELS: Partial<Record<DiagnosticCode, [one: string, many: string]>> = {
  'frame-split-across-reads': ['frame arrived split across network reads', 'frames arrived split across network reads'],
  'utf8-split-across-reads': ['frame with a character split across network reads', 'frames with a character split across network reads'],
  'stall': ['stall: a long wait between two frames', 'stalls: long waits between frames'],
  'mixed-line-endings': ['note on line endings of more than one kind', 'notes on line endings of more than one kind'],
  'bom': ['byte order mark at the start of the body', 'byte order marks at the start of the body'],
  'duplicate-finish': ['finish reason sent again', 'finish reasons sent again'],
  'final-mismatch': ['text taken from a final event (no deltas carried it)', 'texts taken from final events (no deltas carried them)'],
  'note': ['note from the reader of this wire format', 'notes from the reader of this wire format'],
}

/** "41 frames arrived split across network reads"; a code without words of its own: "2 × its-code". */
export function noteGroupLabel(code: DiagnosticCode, count: number): string {
  const words = LABELS[code]
  return words === undefined ? `${formatCount(count)} × ${code}` : `${formatCount(count)} ${count === 1 ? words[0] : words[1]}`
}
