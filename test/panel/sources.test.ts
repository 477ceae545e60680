// The standalone page's inputs, without a browser: what it reads, and that an export read
// back shows the same reply.

import { describe, expect, it } from 'vitest'
import { fixtureToJson, toFixture } from '../../src/exchange/fixture.js'
import { toHar } from '../../src/exchange/har.js'
import { SLICE_SIZE } from '../../src/exchange/slices.js'
import { feedStreams, type FeedEvent } from '../../panel/store/feed.js'
import type { CaptureEvent } from '../../panel/shell.js'
import { readFile, readSource, STREAMED_FILE, type FileLike } from '../../panel/store/sources.js'
import { diagnose } from '../../src/debug/diagnose.js'
import { merge } from '../../src/library.js'
import { createPanelStore } from '../../panel/store/index.js'
import { LARGE_CHUNK } from '../../panel/store/backlog.js'
import type { ReadSync } from '../../panel/store/file-body.js'
import type { StoreOptions } from '../../panel/store/types.js'

const SSE = 'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"}}]}\n\n'
  + 'data: {"choices":[{"index":0,"delta":{"content":" there"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'

function storeWith(streams: ReturnType<typeof readSource>['streams']) {
  const store = createPanelStore(null, { schedule: () => {} })
  return { store, fed: feedStreams((e) => store.apply(e), streams, { onRequest: (s) => { if (s.forced) store.apply({ type: 'force', id: s.request.id, forced: s.forced }) } }) }
}

describe('standalone page inputs', () => {
  it('names a paste and a raw file, and gives every load its own ids', () => {
    const a = readSource({ text: SSE }, null)
    const b = readSource({ text: SSE }, null)
    expect(a.kind).toBe('stream')
    expect(a.streams[0]!.request).toMatchObject({ method: 'PASTE', url: 'pasted text', source: 'paste', contentType: null })
    expect(a.streams[0]!.request.id).not.toBe(b.streams[0]!.request.id)
    const file = readSource({ bytes: new TextEncoder().encode(SSE) }, 'chat.sse')
    expect(file.streams[0]!.request).toMatchObject({ method: 'FILE', url: 'chat.sse', source: 'import', contentType: 'text/event-stream' })
    const sample = readSource({ text: SSE }, 'openai-chat.sse', { source: 'sample' })
    expect(sample.streams[0]!.request).toMatchObject({ method: 'SAMPLE', url: 'openai-chat.sse', source: 'sample' })
  })

  it('reports what it cannot read', () => {
    expect(readSource({ text: '{"log": 3}' }, 'x.har')).toMatchObject({ kind: 'error', streams: [] })
    expect(readSource({ text: '   ' }, null).warnings.length).toBe(1)
  })

  it('reads back its own fixture and HAR exports to the same reply', async () => {
    const first = storeWith(readSource({ text: SSE }, null).streams)
    await first.fed.finished
    const id = first.store.requests.value[0]!.id
    const source = first.store.recordings.get(id)!
    const reply = source.expected
    expect(reply.choices[0]!.content).toBe('Hi there')

    const fixture = readSource({ text: fixtureToJson(toFixture(source)) }, 'x.deltascope.json')
    expect(fixture.kind).toBe('fixture')
    expect(fixture.streams[0]!.expected).toEqual(reply)
    const second = storeWith(fixture.streams)
    await second.fed.finished
    expect(second.store.recordings.get(second.store.requests.value[0]!.id)!.expected).toEqual(reply)

    const har = readSource({ text: JSON.stringify(toHar([source])) }, 'x.har')
    expect(har.kind).toBe('har')
    const third = storeWith(har.streams)
    await third.fed.finished
    expect(third.store.recordings.get(third.store.requests.value[0]!.id)!.expected).toEqual(reply)
  })

  it('keeps a fixture\'s forced provider', async () => {
    const plain = storeWith(readSource({ text: SSE }, null).streams)
    await plain.fed.finished
    const id = plain.store.requests.value[0]!.id
    plain.store.apply({ type: 'force', id, forced: { provider: 'generic' } })
    const json = fixtureToJson(toFixture(plain.store.recordings.get(id)!))
    const back = storeWith(readSource({ text: json }, 'forced.deltascope.json').streams)
    await back.fed.finished
    const row = back.store.requests.value[0]!
    expect([row.provider, row.forced]).toEqual(['generic', { provider: 'generic' }])
  })

  it('slices a large body into many chunk events, and reports progress to the end', async () => {
    const big = SSE.repeat(20_000)
    const events: string[] = []
    const progress: number[] = []
    const job = feedStreams((e) => events.push(e.type), readSource({ text: big }, null).streams, { onProgress: (p) => progress.push(p.done) })
    await job.finished
    expect(events[0]).toBe('request')
    expect(events.filter((t) => t === 'chunk').length).toBe(Math.ceil(big.length / (256 * 1024)))
    expect(events[events.length - 1]).toBe('finished')
    expect(progress[progress.length - 1]).toBe(big.length)
  })

  it('keeps a paste cut in slices as the one read it was: exported as one chunk, no frame said split across reads', async () => {
    const big = SSE.repeat(20_000)
    const store = createPanelStore(null, { schedule: (f) => { setTimeout(f, 0) } })
    const continues: boolean[] = []
    await feedStreams((e) => { if (e.type === 'chunk') continues.push(e.continues === true); store.apply(e) }, readSource({ text: big }, null).streams).finished
    for (let i = 0; i < 400 && store.requests.value[0]?.state === 'live'; i++) await new Promise((r) => setTimeout(r, 5))
    const id = store.requests.value[0]!.id
    store.select(id)
    const slices = Math.ceil(big.length / SLICE_SIZE)
    expect(continues).toEqual([false, ...Array(slices - 1).fill(true)])
    const source = store.recordings.get(id)!
    expect(source.chunks.length).toBe(1)
    const data = source.chunks[0]!.data
    expect(typeof data === 'string' ? data : new TextDecoder().decode(data)).toBe(big)
    expect(store.selection.value!.diagnostics.map((d) => d.code).filter((c) => c.endsWith('-split-across-reads'))).toEqual([])
  })

  it('still says a frame was split across reads when the pieces were separate reads', async () => {
    const store = createPanelStore(null, { schedule: (f) => { setTimeout(f, 0) } })
    const [stream] = readSource({ text: SSE }, null).streams
    store.apply({ type: 'request', request: stream!.request })
    store.apply({ type: 'chunk', id: stream!.request.id, data: SSE.slice(0, 30), t: null })
    store.apply({ type: 'chunk', id: stream!.request.id, data: SSE.slice(30), t: null })
    store.apply({ type: 'finished', id: stream!.request.id, t: null })
    for (let i = 0; i < 400 && store.requests.value[0]?.state === 'live'; i++) await new Promise((r) => setTimeout(r, 5))
    store.select(stream!.request.id)
    expect(store.recordings.get(stream!.request.id)!.chunks.length).toBe(2)
    expect(store.selection.value!.diagnostics.filter((d) => d.code === 'frame-split-across-reads').map((d) => d.frame)).toEqual([0])
  })

  it('feeds pieces that never split a surrogate pair (the one slicer, src/exchange/slices.ts)', async () => {
    const text = 'x'.repeat(SLICE_SIZE - 1) + '🌍y'
    const pieces: number[] = []
    const emit = (e: FeedEvent) => { if (e.type === 'chunk') pieces.push((e.data as string).length) }
    await feedStreams(emit, readSource({ text }, null).streams).finished
    expect(pieces).toEqual([SLICE_SIZE - 1, 3])
  })

  describe('files', () => {
    /** A file whose body streams in `piece`-byte pieces; reading it whole throws when `whole` is false. */
    function fileOf(name: string, text: string, options: { whole: boolean; piece?: number; failAt?: number }): FileLike & { wholeReads: number } {
      const bytes = new TextEncoder().encode(text)
      const piece = options.piece ?? 65536
      const f = {
        name, size: bytes.byteLength, wholeReads: 0,
        slice: (start: number, end: number) => ({ arrayBuffer: async () => bytes.slice(start, end).buffer }),
        async arrayBuffer() {
          f.wholeReads++
          if (!options.whole) throw new Error('read whole')
          return bytes.slice().buffer
        },
        stream: () => {
          let at = 0
          return new ReadableStream<Uint8Array>({
            pull(c) {
              if (options.failAt !== undefined && at >= options.failAt) return c.error(new Error('NotReadableError'))
              if (at >= bytes.byteLength) return c.close()
              c.enqueue(bytes.slice(at, at + piece))
              at += piece
            },
          })
        },
      }
      return f
    }
    const big = SSE.repeat(Math.ceil((STREAMED_FILE + 1) / SSE.length))
    /** A byte stream of `bytes` (as a File's is in Chromium): each read fills the reader's buffer, shown first to `asked`. */
    function byteStreamOf(bytes: Uint8Array, asked: (buffer: Uint8Array) => void): ReadableStream<Uint8Array> {
      let at = 0
      return new ReadableStream({
        type: 'bytes',
        pull(c) {
          const request = c.byobRequest!
          const view = new Uint8Array(request.view!.buffer, request.view!.byteOffset, request.view!.byteLength)
          if (at >= bytes.byteLength) { c.close(); request.respond(0); return }
          asked(view)
          const n = Math.min(view.byteLength, bytes.byteLength - at)
          view.set(bytes.subarray(at, at + n))
          at += n
          request.respond(n)
        },
      })
    }

    /** A store whose batches run on timers, fed `streams`; resolves once the first request ended. */
    async function fedAndEnded(streams: ReturnType<typeof readSource>['streams'], options: StoreOptions = {}) {
      const store = createPanelStore(null, { schedule: (f) => { setTimeout(f, 0) }, ...options })
      const events: string[] = []
      await feedStreams((e) => { events.push(e.type); store.apply(e) }, streams).finished
      for (let i = 0; i < 400 && store.requests.value[0]?.state === 'live'; i++) await new Promise((r) => setTimeout(r, 5))
      return { store, events, id: store.requests.value[0]!.id }
    }

    it('hands a large raw stream file to the store, which reads it as bytes in the pieces its stream gives, never whole', async () => {
      const file = fileOf('big.sse', big, { whole: false })
      const result = await readFile(file)
      expect([result.kind, result.streams.length, result.streams[0]!.chunks.length, result.streams[0]!.body!.size]).toEqual(['stream', 1, 0, file.size])
      expect(result.streams[0]!.request).toMatchObject({ method: 'FILE', url: 'big.sse', source: 'import', contentType: 'text/event-stream' })
      const { store, events, id } = await fedAndEnded(result.streams)
      // the feed sends the file, not its bytes: the store reads it (in the page, in its worker)
      expect(events).toEqual(['request', 'body'])
      const source = store.recordings.get(id)!
      expect(source.chunks.map((c) => c.data.length)).toEqual([...Array(Math.floor(file.size / 65536)).fill(65536), file.size % 65536])
      expect([source.state, source.expected]).toEqual(['finished', merge(big, { url: 'big.sse', contentType: 'text/event-stream' })])
      expect(file.wholeReads).toBe(0)
    })

    it('says nothing of frames split across the file\'s slices: they are where the file was cut, not reads a client got', async () => {
      const { store, id } = await fedAndEnded((await readFile(fileOf('big.sse', big, { whole: false }))).streams)
      store.select(id)
      const codes = store.selection.value!.diagnostics.map((d) => d.code)
      expect(store.recordings.get(id)!.chunks.length).toBeGreaterThan(1)
      expect(codes.filter((c) => c.endsWith('-split-across-reads'))).toEqual([])
      expect(codes).toEqual(diagnose(store.recordings.get(id)!).map((d) => d.code).filter((c) => !c.endsWith('-split-across-reads')))
    })

    describe('read back from the file where it can be read synchronously (in a worker: FileReaderSync)', () => {
      const bytes = new TextEncoder().encode(big)
      const readSync = (reads: Array<[number, number]>, failAfter = Infinity): ReadSync => (_source, from, to) => {
        if (reads.length >= failAfter) throw new Error('NotReadableError')
        reads.push([from, to])
        return bytes.slice(from, to)
      }

      it('keeps none of the body: the frames, the reply and the bytes exported are the same as a store that kept it', async () => {
        const reads: Array<[number, number]> = []
        const backed = await fedAndEnded((await readFile(fileOf('big.sse', big, { whole: false }))).streams, { readSync: readSync(reads) })
        const kept = await fedAndEnded((await readFile(fileOf('big.sse', big, { whole: false }))).streams, { readSync: null })
        expect(reads).toEqual([])
        const source = backed.store.recordings.get(backed.id)!
        const other = kept.store.recordings.get(kept.id)!
        expect(source.frames()).toEqual(other.frames())
        expect(source.expected).toEqual(other.expected)
        expect(Buffer.concat(source.chunks.map((c) => c.data as Uint8Array)).equals(bytes)).toBe(true)
        expect(reads.length).toBeGreaterThan(0)
      })

      it('says so once when the file can no longer be read, and shows its unread bytes as "?"', async () => {
        const { store, id } = await fedAndEnded((await readFile(fileOf('big.sse', big, { whole: false }))).streams, { readSync: readSync([], 0) })
        store.select(id)
        const frame = store.frame(0)!
        expect(frame.raw).toBe('?'.repeat(frame.byteEnd - frame.byteStart))
        store.frame(1)
        expect(store.notes.value.map((n) => n.message)).toEqual([
          'big.sse: the file can no longer be read (Error: NotReadableError); it changed or went away since it was opened, so frames read from it now show "?" for its bytes: open it again',
        ])
      })
    })

    it('asks a byte stream (a File\'s, in Chromium) for pieces of 256 KiB, and merges the same bytes as from its own pieces', async () => {
      const file = fileOf('big.sse', big, { whole: false })
      const asked: number[] = []
      const bytes = new TextEncoder().encode(big)
      const byteFile = { ...file, stream: () => byteStreamOf(bytes, (buffer) => asked.push(buffer.byteLength)) }
      const read = await fedAndEnded((await readFile(byteFile)).streams)
      const plain = await fedAndEnded((await readFile(file)).streams)
      expect(asked.slice(0, 3)).toEqual([256 * 1024, 256 * 1024, 256 * 1024])
      const body = (r: typeof read) => Buffer.concat(r.store.recordings.get(r.id)!.chunks.map((c) => c.data as Uint8Array))
      expect([body(read).equals(bytes), read.store.requests.value[0]!.state]).toEqual([true, 'finished'])
      read.store.select(read.id)
      plain.store.select(plain.id)
      const reply = read.store.selection.value!.latest
      expect([reply.frameCount, reply.choices[0]!.content.length]).toEqual([plain.store.selection.value!.latest.frameCount, plain.store.selection.value!.latest.choices[0]!.content.length])
      expect(reply.frameCount).toBeGreaterThan(1000)
      expect(reply).toEqual(plain.store.selection.value!.latest)
    })

    it('reads a byte stream into the buffers of pieces the merger let go of (a worker, reading back from the file), and merges it exactly', async () => {
      const long = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: '天'.repeat(400_000) }, finish_reason: null }] })}\n\n`
      const text = big + long + big
      const bytes = new TextEncoder().encode(text)
      const file = fileOf('big.sse', text, { whole: false })
      let fresh = 0
      let reused = 0
      // a buffer made for this read is all zeros; one used before still holds its bytes
      const byteFile = { ...file, stream: () => byteStreamOf(bytes, (buffer) => { if (buffer.some((b) => b !== 0)) reused++; else fresh++ }) }
      const readSync = (_source: unknown, from: number, to: number) => bytes.slice(from, to)
      const read = await fedAndEnded((await readFile(byteFile)).streams, { readSync })
      const plain = await fedAndEnded((await readFile(file)).streams)
      const pieces = Math.ceil(bytes.byteLength / (256 * 1024))
      expect([fresh + reused, reused > pieces / 2, fresh < pieces / 2]).toEqual([pieces, true, true])
      read.store.select(read.id)
      plain.store.select(plain.id)
      expect(read.store.selection.value!.latest).toEqual(plain.store.selection.value!.latest)
      expect(read.store.selection.value!.latest.choices[0]!.content.length).toBeGreaterThan(400_000)
      expect(read.store.frame(1)).toEqual(plain.store.frame(1))
    })

    it('cuts a stream piece larger than LARGE_CHUNK into views of LARGE_CHUNK, each merged where it arrives', async () => {
      const file = fileOf('big.sse', big, { whole: false, piece: 600 * 1024 })
      const { store, id } = await fedAndEnded((await readFile(file)).streams)
      const sizes = store.recordings.get(id)!.chunks.map((c) => c.data.length)
      expect(sizes.slice(0, 11)).toEqual([...Array(9).fill(LARGE_CHUNK), 600 * 1024 - 9 * LARGE_CHUNK, LARGE_CHUNK])
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(file.size)
    })

    it('stops reading a file whose request was removed (Clear, another paste)', async () => {
      let pulls = 0
      const file = fileOf('big.sse', big.repeat(8), { whole: false, piece: 4096 })
      const counted = { ...file, stream: () => { const s = file.stream(); const r = s.getReader(); return new ReadableStream<Uint8Array>({ async pull(c) { pulls++; const p = await r.read(); if (p.done) c.close(); else c.enqueue(p.value) } }) } }
      const store = createPanelStore(null, { schedule: () => {} })
      const streams = (await readFile(counted)).streams
      await feedStreams((e) => store.apply(e), streams).finished
      // removed once reading has begun
      while (pulls < 2) await new Promise((r) => setImmediate(r))
      store.apply({ type: 'removed', id: streams[0]!.request.id })
      const at = pulls
      await new Promise((r) => setTimeout(r, 50))
      expect(pulls).toBeLessThanOrEqual(at + 2)
      expect(pulls).toBeLessThan(file.size / 4096)
      expect(store.requests.value).toEqual([])
    })

    it('streams a large NDJSON file (its first line a whole JSON value)', async () => {
      const line = '{"model":"llama3","message":{"role":"assistant","content":"hi"},"done":false}\n'
      const result = await readFile(fileOf('big.ndjson', line.repeat(Math.ceil((STREAMED_FILE + 1) / line.length)), { whole: false }))
      expect([result.kind, result.streams[0]!.body?.size]).toEqual(['stream', Math.ceil((STREAMED_FILE + 1) / line.length) * line.length])
    })

    it('reads whole a small file, a .har or .json file, a JSON document over several lines and curl -i output', async () => {
      const pretty = JSON.stringify({ log: { entries: [], pad: 'x'.repeat(STREAMED_FILE) } }, null, 2)
      const cases = [fileOf('small.sse', SSE, { whole: true }), fileOf('big.json', big, { whole: true }), fileOf('big.har', big, { whole: true }),
        fileOf('capture.txt', pretty, { whole: true }), fileOf('curl.txt', `HTTP/1.1 200 OK\ncontent-type: text/event-stream\n\n${big}`, { whole: true })]
      for (const file of cases) {
        const result = await readFile(file)
        expect([file.name, file.wholeReads, result.streams.every((s) => s.body === undefined)]).toEqual([file.name, 1, true])
      }
    })

    it('ends a file that fails while it is read as cancelled, saying why, with what arrived merged', async () => {
      // no terminal event in what arrives: a stream cut short, not one the page closed after [DONE]
      const open = 'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n'
      const result = await readFile(fileOf('gone.sse', open.repeat(Math.ceil((STREAMED_FILE + 1) / open.length)), { whole: false, failAt: 65536 * 2 }))
      const { store } = await fedAndEnded(result.streams)
      const row = store.requests.value[0]!
      expect([row.state, row.cancelReason, row.bytes]).toEqual(['cancelled', 'the file could not be read to its end (Error: NotReadableError)', 65536 * 2])
    })
  })
})

describe('files imported where the store runs (store.importFiles)', () => {
  /** A file read whole: a name and its text. */
  const small = (name: string, text: string): File => new File([text], name)
  /** Runs the store's batches until every request listed has ended. */
  const settle = async (store: ReturnType<typeof createPanelStore>) => {
    for (let i = 0; i < 200; i++) {
      store.runBatch()
      if (store.requests.value.length > 0 && store.requests.value.every((r) => r.state !== 'live')) return
      await new Promise((r) => setTimeout(r, 5))
    }
  }

  it('reads every file, says what it found before feeding, lists each request and selects the first', async () => {
    const store = createPanelStore(null, { schedule: (f) => { setTimeout(f, 0) } })
    const first = createPanelStore(null, { schedule: () => {} })
    await feedStreams((e) => first.apply(e), readSource({ text: SSE }, 'a.sse').streams).finished
    const har = JSON.stringify(toHar([first.recordings.get(first.requests.value[0]!.id)!]))
    const job = store.importFiles([small('session.har', har), small('broken.har', '{"log": 3}'), small('chat.sse', SSE)])
    const read = await job.read
    expect(read.count).toBe(2)
    expect(read.warnings).toHaveLength(1)
    expect(read.warnings[0]).toMatch(/^broken\.har: /)
    await job.finished
    await settle(store)
    const rows = store.requests.value
    expect(rows.map((r) => [r.url, r.source, r.state, r.frames]).sort()).toEqual([['a.sse', 'import', 'finished', 3], ['chat.sse', 'import', 'finished', 3]])
    expect(store.selectedId.value).toBe(rows.find((r) => r.url === 'a.sse')!.id)
  })

  it('marks every request imported when asked (files dropped on the DevTools panel)', async () => {
    const store = createPanelStore(null, { schedule: (f) => { setTimeout(f, 0) } })
    const job = store.importFiles([small('chat.sse', SSE)], { asImport: true })
    await job.finished
    await settle(store)
    expect(store.requests.value.map((r) => r.source)).toEqual(['import'])
  })

  it('says so when a fixture\'s expected reply is not the one rebuilt here', async () => {
    const first = createPanelStore(null, { schedule: () => {} })
    await feedStreams((e) => first.apply(e), readSource({ text: SSE }, null).streams).finished
    const fixture = toFixture(first.recordings.get(first.requests.value[0]!.id)!)
    const edited = { ...fixture, expected: { ...fixture.expected, choices: [{ ...fixture.expected.choices[0]!, content: 'Edited' }] } }
    const store = createPanelStore(null, { schedule: (f) => { setTimeout(f, 0) } })
    await store.importFiles([small('x.deltascope.json', fixtureToJson(edited))]).finished
    expect(store.notes.value.map((n) => n.message)).toEqual(['pasted text: the fixture\'s expected reply differs from the reply rebuilt here (exported by another version, or edited)'])
  })

  it('feeds nothing once cancelled', async () => {
    const store = createPanelStore(null, { schedule: (f) => { setTimeout(f, 0) } })
    const job = store.importFiles([small('chat.sse', SSE)])
    job.cancel()
    expect(await job.read).toEqual({ count: 1, warnings: [] })
    await job.finished
    expect(store.requests.value).toEqual([])
  })
})
