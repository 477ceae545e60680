// The CLI's I/O: the body as a stream of chunks (never the whole file at once), and stdout
// written with back-pressure so a slow pipe cannot make output pile up in memory.

import { once } from 'node:events'
import { open } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Read size: big enough to keep the per-push cost low, small enough to stay bounded. */
const CHUNK = 1 << 18

/** Output longer than this is written in slices of this many characters. */
const WRITE_SLICE = 1 << 20

export class InputError extends Error {}

/** Opens FILE (or stdin for `-`); a missing or unreadable file fails here, before any output. */
export async function openInput(file: string): Promise<AsyncIterable<Uint8Array>> {
  if (file === '-') return process.stdin
  try {
    const handle = await open(file, 'r')
    const stat = await handle.stat()
    if (stat.isDirectory()) {
      await handle.close()
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' })
    }
    return handle.createReadStream({ highWaterMark: CHUNK })
  } catch (e) {
    throw new InputError(`cannot read ${file}: ${reason(e)}`)
  }
}

/** Reads every chunk into `push`, awaiting it (so output of a chunk is written before the next is read). */
export async function readChunks(
  input: AsyncIterable<Uint8Array>, file: string, push: (chunk: Uint8Array) => void | Promise<void>,
): Promise<void> {
  const iterator = input[Symbol.asyncIterator]()
  for (;;) {
    const next = await nextChunk(iterator, file)
    if (next.done) return
    await push(next.value)
  }
}

/** The next chunk; a read error is an InputError. */
export async function nextChunk(iterator: AsyncIterator<Uint8Array>, file: string): Promise<IteratorResult<Uint8Array>> {
  try {
    return await iterator.next()
  } catch (e) {
    throw new InputError(`cannot read ${file === '-' ? 'stdin' : file}: ${reason(e)}`)
  }
}

/** A whole (small) file or stdin as UTF-8 text: check's RESULT. */
export async function readText(file: string): Promise<string> {
  const parts: Uint8Array[] = []
  await readChunks(await openInput(file), file, (c) => { parts.push(c) })
  return Buffer.concat(parts).toString('utf8')
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'name too long',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
}

function reason(e: unknown): string {
  const code = (e as { code?: unknown }).code
  if (typeof code === 'string' && REASONS[code]) return REASONS[code]
  const message = e instanceof Error ? e.message : String(e)
  return message.replace(/^[A-Z]+: /, '').split('\n')[0]!
}

/** Writes to a stream, waiting for 'drain' when its buffer is full. */
export class Output {
  constructor(private readonly stream: NodeJS.WritableStream) {}

  /** Pieces of one text: short ones are joined into writes of up to WRITE_SLICE, long ones written alone, in slices. */
  async writeParts(parts: readonly string[]): Promise<void> {
    let run: string[] = []
    let size = 0
    for (const part of parts) {
      if (size + part.length > WRITE_SLICE && run.length > 0) { await this.write(run.join('')); run = []; size = 0 }
      if (part.length > WRITE_SLICE) { await this.write(part); continue }
      run.push(part)
      size += part.length
    }
    if (run.length > 0) await this.write(run.join(''))
  }

  async write(text: string): Promise<void> {
    // a reply of hundreds of MB goes out in slices: no Buffer of all of it beside the text
    for (let at = 0; at < text.length; at += WRITE_SLICE) {
      const part = text.length <= WRITE_SLICE ? text : text.slice(at, at + WRITE_SLICE)
      if (!this.stream.write(part)) await once(this.stream, 'drain')
    }
  }
}

/** The version in the package.json above this file (src/cli or dist/lib/cli). */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown }
      if (pkg.name === 'deltascope' && typeof pkg.version === 'string') return pkg.version
    } catch {
      // not here: look one level up
    }
    const parent = dirname(dir)
    if (parent === dir) return 'unknown'
    dir = parent
  }
}
