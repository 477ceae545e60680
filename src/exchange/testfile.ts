// A ready vitest file for one fixture (DESIGN §5): it replays the network chunks in order,
// with their times, into createMerger and asserts the Reply Deltascope showed; a second
// test merges the whole body at once and expects the same Reply.

import { fixtureMergeOptions, type Fixture, type FixtureChunk } from './fixture.js'

export interface TestFileOptions {
  /** Where createMerger / merge come from. Default "deltascope". */
  importFrom?: string
  /**
   * Read the fixture at run time from this path (relative to the test file, e.g.
   * "./chat.deltascope.json") instead of embedding its chunks and Reply.
   */
  fixtureFile?: string
}

/** The text of a `.test.ts` file that replays the fixture and checks its expected Reply. */
export function toTestFile(fixture: Fixture, options: TestFileOptions = {}): string {
  const from = options.importFrom ?? 'deltascope'
  const chunks = replayChunks(fixture)
  const times = chunks.map((c) => c.t).filter((t): t is number => t !== null)
  const duration = times.length > 0 ? Math.max(0, ...times) : 0
  const target = `${fixture.request.method} ${fixture.request.url}`.trim()
  const status = [fixture.response.status ?? '', fixture.response.contentType ?? ''].join(' ').trim()
  const header = [
    '// Deltascope replay test, generated from a captured request: edit freely.',
    `// ${oneLine(target)}${status ? ` → ${oneLine(status)}` : ''}`,
    `// ${chunks.length} network chunk${chunks.length === 1 ? '' : 's'}${times.length > 0 ? ` over ${Math.round(duration)} ms` : ''}, exported ${oneLine(fixture.meta.exportedAt)}${fixture.meta.redacted === false ? ' (credentials included)' : ''}.`,
    '//',
    '// Replays the chunks in arrival order, with their times, into a fresh merger and checks',
    '// the reply it rebuilds against the one Deltascope showed. Set REPLAY_SPEED to 1 to wait',
    '// between chunks as the network did (0 replays as fast as possible).',
  ]
  const imports = [
    ...(options.fixtureFile !== undefined ? ["import { readFileSync } from 'node:fs'"] : []),
    "import { describe, expect, it } from 'vitest'",
    `import { createMerger, merge, type MergeOptions, type Reply } from ${quote(from)}`,
  ]
  const data = options.fixtureFile !== undefined ? loadedData(options.fixtureFile) : embeddedData(fixture, chunks)
  const title = `Deltascope replay: ${target.replace(/^(\S+) [a-z][a-z0-9+.-]*:\/\//i, '$1 ')}`
  const body = `
const REPLAY_SPEED = 0

${data}

function fromBase64(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
}

/** All text, or all bytes when a chunk is not UTF-8 on its own: text must not land between the halves of a split character. */
function pieces(): Array<{ data: string | Uint8Array; t: number | null }> {
  const binary = chunks.some((c) => c.base64 !== undefined)
  const encoder = new TextEncoder()
  return chunks.map((c) => ({
    t: c.t,
    data: c.base64 !== undefined ? fromBase64(c.base64) : binary ? encoder.encode(c.text ?? '') : c.text ?? '',
  }))
}

function whole(parts: Array<{ data: string | Uint8Array }>): string | Uint8Array {
  if (parts.every((p) => typeof p.data === 'string')) return parts.map((p) => p.data).join('')
  const bytes = parts.map((p) => p.data as Uint8Array)
  const out = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0))
  let at = 0
  for (const b of bytes) { out.set(b, at); at += b.length }
  return out
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

describe(${quote(oneLine(title))}, () => {
  it('rebuilds the captured reply from the network chunks, with their timing', async () => {
    const merger = createMerger(options)
    let clock = 0
    for (const { data, t } of pieces()) {
      if (t !== null && REPLAY_SPEED > 0) {
        await sleep(Math.max(0, t - clock) * REPLAY_SPEED)
        clock = t
      }
      if (t === null) merger.push(data)
      else merger.push(data, t)
    }
    expect(merger.end()).toEqual(expected)
  }, 10_000 + DURATION_MS * REPLAY_SPEED)

  it('rebuilds the same reply from the whole body at once', () => {
    expect(merge(whole(pieces()), options)).toEqual(expected)
  })
})
`
  return [...header, ...imports].join('\n') + '\n' + body.replace('DURATION_MS', String(Math.ceil(duration)))
}

/** The fixture's chunks, or its body as one chunk when it has none. */
function replayChunks(fixture: Fixture): FixtureChunk[] {
  if (fixture.chunks.length > 0) return fixture.chunks
  const { text, base64 } = fixture.body
  if (base64 !== undefined) return [{ t: null, base64 }]
  return text === '' ? [] : [{ t: null, text }]
}

function embeddedData(fixture: Fixture, chunks: FixtureChunk[]): string {
  const options = fixtureMergeOptions(fixture)
  const lines = chunks.map((c) => '  ' + JSON.stringify(c) + ',')
  return [
    `const options: MergeOptions = ${literal(options, 0)}`,
    '',
    '/** Network chunks: t = ms since the request started (null when unknown); text, or base64 for bytes that are not UTF-8 on their own. */',
    `const chunks: Array<{ t: number | null; text?: string; base64?: string }> = [${lines.length > 0 ? '\n' + lines.join('\n') + '\n' : ''}]`,
    '',
    `const expected: Reply = ${literal(fixture.expected, 2)}`,
  ].join('\n')
}

function loadedData(file: string): string {
  return [
    'interface Fixture {',
    '  request: { url: string }',
    '  response: { contentType: string | null }',
    '  body: { text: string; base64?: string }',
    '  chunks: Array<{ t: number | null; text?: string; base64?: string }>',
    '  expected: Reply',
    "  forced?: Pick<MergeOptions, 'provider' | 'transport'>",
    '}',
    '',
    `const fixture = JSON.parse(readFileSync(new URL(${quote(file)}, import.meta.url), 'utf8')) as Fixture`,
    'const options: MergeOptions = {',
    '  url: fixture.request.url,',
    '  ...(fixture.response.contentType ? { contentType: fixture.response.contentType } : {}),',
    '  ...fixture.forced,',
    '}',
    '/** Network chunks: t = ms since the request started (null when unknown); the body as one chunk when none were recorded. */',
    'const chunks: Array<{ t: number | null; text?: string; base64?: string }> =',
    '  fixture.chunks.length > 0 ? fixture.chunks',
    '  : fixture.body.base64 !== undefined ? [{ t: null, base64: fixture.body.base64 }]',
    "  : fixture.body.text !== '' ? [{ t: null, text: fixture.body.text }] : []",
    'const expected: Reply = fixture.expected',
  ].join('\n')
}

/** A JSON value as a TS expression; through JSON.parse when a "__proto__" key would change meaning in a literal. */
function literal(value: unknown, indent: number): string {
  const json = JSON.stringify(value, null, indent)
  if (json.includes('"__proto__"')) return `JSON.parse(${JSON.stringify(JSON.stringify(value))})`
  return json
}

function quote(text: string): string {
  return JSON.stringify(text)
}

function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u2028\u2029]+/g, ' ')
}

