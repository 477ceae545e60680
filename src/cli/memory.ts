// Memory of the CLI on giant inputs (a single frame of hundreds of MB). V8 does not run a
// full collection while one large string after another is allocated: measured on a 200 MB
// frame, the heap grew from 190 MB to 1.34 GB before its first mark-compact, 578 MB of it
// live. Every transient copy (the pieces of a long line, the line once joined, a frame read
// again) then adds to the peak. A one-shot process working on such a body collects at its
// phase boundaries instead, and writes a long text in slices (no Buffer of all of it).

import { openSync, closeSync, fstatSync, readSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { BodyReader } from '../library.js'

/** Inputs below this size leave too little garbage to be worth a full collection (tens of ms each). */
export const BIG_INPUT = 1 << 25

let gcFunction: (() => void) | null | undefined

/**
 * Matched on '' before a collection: V8 keeps the subject of the last successful regex match
 * (RegExp.lastMatch, `$_`) alive from the global context, and that was a body of 200 MB
 * read by a regex in the merge (found in a heap snapshot, beside the reply's own copy).
 */
const FORGET_LAST_MATCH = /^/

/** A full garbage collection, when this Node lets the process ask for one (else nothing). */
export function collect(): void {
  if (gcFunction === undefined) gcFunction = exposeGc()
  FORGET_LAST_MATCH.test('')
  gcFunction?.()
}

/** collect() when `bytes` of input were read: a small input's garbage is left to V8. */
export function collectAfter(bytes: number): void {
  if (bytes >= BIG_INPUT) collect()
}

function exposeGc(): (() => void) | null {
  const existing = (globalThis as { gc?: () => void }).gc
  if (typeof existing === 'function') return existing
  try {
    // the flag exposes `gc` to contexts created from now on: a new context hands it over
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as unknown
    return typeof gc === 'function' ? (gc as () => void) : null
  } catch {
    return null
  }
}

/**
 * A regular file's bytes read back at their offsets (MergeOptions.bodyReader): the merger
 * then need not hold the bytes of a frame it has decoded. Null for stdin, a pipe or anything
 * that cannot be read twice. The descriptor stays open until the process exits.
 */
export function fileBodyReader(file: string): BodyReader | null {
  if (file === '-') return null
  let fd: number
  try {
    fd = openSync(file, 'r')
    if (!fstatSync(fd).isFile()) { closeSync(fd); return null }
  } catch {
    return null
  }
  return (from, to) => {
    const out = new Uint8Array(to - from)
    let at = 0
    while (at < out.length) {
      const n = readSync(fd, out, at, out.length - at, from + at)
      if (n === 0) break
      at += n
    }
    return at === out.length ? out : out.subarray(0, at)
  }
}
