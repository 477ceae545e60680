// Whether Chrome's Live capture copies a response, decided from its first reads before any of
// its bytes is copied. Pure: no browser APIs, unit-tested in Node.
//
// Copying a body through chrome.debugger (Network.streamResourceContent) costs Chrome per byte:
// every read is base64-encoded into a protocol message, sent through the browser process to
// the extension and parsed there, on the threads the page needs. A streamed reply brings a few
// kilobytes a second and pays nothing noticeable; a body sent as fast as the socket takes it
// paid ten times its reading time (bench:live, Chromium 150: 50 MB read in 0.1–0.3 s without
// Live, 1.7–8.7 s with it). Until streamResourceContent is called, Chrome still says each
// read's length and time (Network.dataReceived without data) and keeps the bytes for the
// call's `bufferedData`. So:
// - a response whose first read is small (up to SMALL_FIRST_READ: a reply's first frames) is
//   followed at once. Chrome keeps no body of a response read to its end through a reader
//   that ends before it is followed (measured, Chromium 150: getResponseBody and DevTools'
//   getContent both find none), so a short reply sent at once would be lost by waiting;
// - otherwise its reads are watched for LOOK_MS from its first:
// - no more than QUIET_BYTES by then (a reply's first frames), it is followed: the bytes so far
//   arrive as `bufferedData`, cut back into the reads they came in, each with its time, and
//   every later read as it comes;
// - more, it is watched on, up to LONG_LOOK_MS, and followed then (a loaded machine delivers a
//   download in bursts with gaps, and 30 ms of it can look quiet);
// - past BULK_BYTES before it is followed, it is a download, not a streamed reply: Live leaves
//   it to the capture on completion and says so;
// - ended before that (a short reply sent at once), it is captured on completion too.
// Either way the reads' lengths and times go to the hub, which cuts the body DevTools hands
// over on completion back into them (a first frame shown LOOK_MS late is the price: the
// times are the reads' own).

/** A first read up to this size is followed at once. */
export const SMALL_FIRST_READ = 16 * 1024
/** How long a response's reads are watched, from its first, before it may be followed. */
export const LOOK_MS = 30
/** No more than this by LOOK_MS: followed then. */
export const QUIET_BYTES = 64 * 1024
/** The longest a response is watched before it is followed. */
export const LONG_LOOK_MS = 300
/** More than this within the look: a download (17 MB/s and faster), not followed. */
export const BULK_BYTES = 512 * 1024

export type PaceVerdict = 'bulk' | 'look' | 'follow'

export interface Read {
  length: number
  t: number
}

export class PaceWatch {
  readonly reads: Read[] = []
  seen = 0

  /** A read, before the body is copied: what to do now ('look': keep watching). */
  read(length: number, t: number): PaceVerdict {
    this.reads.push({ length, t })
    this.seen += length
    if (this.seen > BULK_BYTES) return 'bulk'
    return this.reads.length === 1 && length <= SMALL_FIRST_READ ? 'follow' : 'look'
  }

  /** `elapsed` ms after the first read (a timer, every LOOK_MS): follow it now, or look on. */
  look(elapsed: number): PaceVerdict {
    if (this.seen > BULK_BYTES) return 'bulk'
    return this.seen <= QUIET_BYTES || elapsed >= LONG_LOOK_MS ? 'follow' : 'look'
  }

  /**
   * `bufferedData` cut back into the reads it arrived in, each with its time. Bytes past the
   * reads seen (none expected: Chrome answers after the reads it reported) are one more piece,
   * at `now`.
   */
  split(buffered: Uint8Array, now: number): Array<{ data: Uint8Array; t: number }> {
    return cutIntoReads(buffered, this.reads, now)
  }

  /** For the note: how much came how fast. */
  describe(): string {
    const mb = (this.seen / 1e6).toFixed(1)
    const first = this.reads[0]?.t ?? 0
    const last = this.reads.at(-1)?.t ?? first
    const ms = Math.max(1, Math.round(last - first))
    return `${mb} MB in its first ${ms} ms`
  }
}

/**
 * `body` cut into the reads it arrived in (lengths in bytes), each with its time; bytes past
 * the reads are one more piece at `rest`, reads past the bytes are left out.
 */
export function cutIntoReads(body: Uint8Array, reads: readonly Read[], rest: number): Array<{ data: Uint8Array; t: number }> {
  const pieces: Array<{ data: Uint8Array; t: number }> = []
  let at = 0
  for (const r of reads) {
    if (at >= body.length) break
    const end = Math.min(body.length, at + r.length)
    pieces.push({ data: body.subarray(at, end), t: r.t })
    at = end
  }
  if (at < body.length) pieces.push({ data: body.subarray(at), t: rest })
  return pieces
}
