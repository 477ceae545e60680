// What `deltascope serve` answers with: every fixture and every streaming entry of every HAR
// given, read and checked before the server listens (a file that cannot be served is one
// clear error, exit 2), each with its route (method and path of the recorded URL) and the
// reads of the chosen chunking, timed.

import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { chunk, stressSource, type ChunkingName, type TimedRead } from '../debug/stress-chunkings.js'
import { importBytes, toFixture, type Fixture } from '../exchange/index.js'
import { InputError } from './io.js'

export interface Capture {
  /** The file, and the entry of a HAR ("chat.har #2"). */
  label: string
  fixture: Fixture
  method: string
  /** The recorded URL's path, without its query. */
  path: string
  /** The provider the capture was read as (openai-chat, anthropic…), for the base URL hint. */
  provider: string
  reads: TimedRead[]
}

export async function loadCaptures(files: readonly string[], chunking: ChunkingName): Promise<Capture[]> {
  const captures: Capture[] = []
  for (const file of files) {
    let bytes: Uint8Array
    try {
      bytes = new Uint8Array(await readFile(file))
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      throw new InputError(`${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message}`)
    }
    const imported = importBytes(bytes, file, { idPrefix: 'serve' })
    if (imported.kind === 'error') throw new InputError(`${file}: ${oneLine(imported.message)}`)
    if (imported.kind === 'stream') {
      throw new InputError(`${file}: a raw body, not a fixture or HAR: it has no status, headers or reads to answer with (export a fixture from the panel; \`deltascope stress\` takes a raw body)`)
    }
    imported.items.forEach((recording, i) => {
      // credentials kept: nothing leaves this machine, and redaction could change the body's bytes
      const fixture = toFixture(recording, { includeCredentials: true })
      const label = imported.items.length > 1 || imported.kind === 'har' ? `${basename(file)} #${i + 1}` : basename(file)
      const chunked = chunk(stressSource(fixture), chunking)
      if (!chunked.applicable) throw new InputError(`${label}: --chunking ${chunking} does not apply: ${chunked.reason}`)
      captures.push({ label, fixture, ...route(fixture), provider: fixture.expected.provider, reads: chunked.reads })
    })
  }
  return captures
}

function route(fixture: Fixture): { method: string; path: string } {
  const method = (fixture.request.method || 'GET').toUpperCase()
  try {
    return { method, path: new URL(fixture.request.url).pathname }
  } catch {
    // a URL that is only a path, or none
    return { method, path: fixture.request.url.split('?')[0] || '/' }
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ')
}
