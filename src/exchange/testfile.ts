// A ready vitest file that tests *the user's client* against one captured request: fetch is
// mocked to replay the recorded response (status, headers, the exact network chunks), the
// user's client reads it in one clearly marked function, and what it rebuilt is compared with
// the Reply Deltascope rebuilt from the same frames (`compareReply` from deltascope/testing).
// The differences, with the frame behind each and its cause, are the failure message.

import { fixtureToJson, type Fixture } from './fixture.js'

export interface TestFileOptions {
  /** Where parseFixture / replayResponse / compareReply come from. Default "deltascope/testing". */
  importFrom?: string
  /**
   * Read the fixture at run time from this path (relative to the test file, e.g.
   * "./chat.deltascope.json") instead of embedding it.
   */
  fixtureFile?: string
  /**
   * Also write a second test that runs the same client under every chunking that breaks
   * clients (stressClient: each byte a read, a boundary inside every frame and character,
   * CRLF, keepalive comments…). Default true.
   */
  stress?: boolean
}

/** The marker lines around the function the user replaces: tests and editors find it by them. */
export const CLIENT_BEGIN = '// ───── YOUR CLIENT: replace the body of runMyClient() ─────'
export const CLIENT_END = '// ───── end of your client ─────'

/** The text of a `.test.ts` file that runs the user's client on the captured response. */
export function toTestFile(fixture: Fixture, options: TestFileOptions = {}): string {
  const from = options.importFrom ?? 'deltascope/testing'
  const stress = options.stress ?? true
  const times = fixture.chunks.map((c) => c.t).filter((t): t is number => t !== null)
  const duration = times.length > 0 ? Math.max(0, ...times) : 0
  const chunkCount = fixture.chunks.length > 0 ? fixture.chunks.length : 1
  const target = `${fixture.request.method} ${fixture.request.url}`.trim()
  const status = [fixture.response.status ?? '', fixture.response.contentType ?? ''].join(' ').trim()
  const title = `my client rebuilds the reply of ${target.replace(/^(\S+) [a-z][a-z0-9+.-]*:\/\//i, '$1 ')}`
  const header = [
    '// Deltascope client test, generated from a captured request: edit freely.',
    `// ${oneLine(target)}${status ? ` → ${oneLine(status)}` : ''}`,
    `// ${chunkCount} network chunk${chunkCount === 1 ? '' : 's'}${times.length > 0 ? ` over ${Math.round(duration)} ms` : ''}, exported ${oneLine(fixture.meta.exportedAt)}${fixture.meta.redacted === false ? ' (credentials included)' : ''}.`,
    '//',
    '// fetch is mocked to replay the captured response exactly (status, headers, the network',
    '// chunks byte for byte); your client reads it in runMyClient(); what it rebuilt must equal',
    '// what Deltascope rebuilt from the same frames. Set REPLAY_SPEED to 1 to deliver the chunks',
    '// at their recorded times (0 delivers them at once).',
  ]
  const imports = [
    ...(options.fixtureFile !== undefined ? ["import { readFileSync } from 'node:fs'"] : []),
    "import { afterEach, expect, it, vi } from 'vitest'",
    `import { ${stress ? 'compareReply, parseFixture, replayResponse, stressClient' : 'compareReply, parseFixture, replayResponse'} } from ${quote(from)}`,
  ]
  const load = options.fixtureFile !== undefined
    ? `const fixture = parseFixture(readFileSync(new URL(${quote(options.fixtureFile)}, import.meta.url), 'utf8'))`
    : `const fixture = parseFixture(${JSON.stringify(fixtureToJson(fixture))})`
  const body = `
const REPLAY_SPEED = 0

${load}

${CLIENT_BEGIN}
// Call your client here, exactly as your app does: it must use fetch (mocked below) to reach
// fixture.request.url, and return what it rebuilt: plain text (the answer), or the object your
// client returns: an OpenAI chat completion (finalChatCompletion()), a Responses response, an
// Anthropic Message (finalMessage()), a Gemini GenerateContentResponse, Ollama's final object,
// an AI SDK UIMessage. Fields your result does not carry are not compared.
//
// For example, with the openai SDK:
//   const client = new OpenAI({ apiKey: 'test', baseURL: new URL('.', fixture.request.url).href })
//   return await client.chat.completions.stream(JSON.parse(fixture.request.body ?? '{}')).finalChatCompletion()
async function runMyClient(): Promise<unknown> {
  throw new Error('Deltascope: put your client in runMyClient() (see the comment above it)')
}
${CLIENT_END}

afterEach(() => {
  vi.unstubAllGlobals()
})

it(${quote(oneLine(title))}, async () => {
  vi.stubGlobal('fetch', async () => replayResponse(fixture, { speed: REPLAY_SPEED }))
  const comparison = compareReply(fixture, await runMyClient())
  const failure = comparison.differences.map((d) => \`\${d.field}: \${d.message} [\${d.cause}\${d.frame === null ? '' : \`, frame \${d.frame}\`}]\`).join('\\n')
  expect(comparison.equal, failure).toBe(true)
}, 10_000 + DURATION_MS * REPLAY_SPEED)
`
  const text = [...header, ...imports].join('\n') + '\n' + body.replace('DURATION_MS', String(Math.ceil(duration)))
  return stress ? text + STRESS_TEST : text
}

/**
 * The same client under every chunking: each run's fetch (a replay of the capture cut another
 * way) is made the global fetch while runMyClient() runs. Runs are one after another, so the
 * stub never serves two at once.
 */
const STRESS_TEST = `
// Bugs the recording did not trigger: the same bytes cut into other network reads (each byte
// its own read, a read boundary inside every frame and every multi-byte character…) and, for
// SSE, re-encoded as servers may legally send them (CRLF, keepalive comments, no space after
// "data:"). Each failure names the chunking, the cause and the frame.
it('my client rebuilds the same reply under every chunking that breaks clients', async () => {
  const report = await stressClient(async (fetch) => {
    vi.stubGlobal('fetch', fetch)
    return await runMyClient()
  }, fixture, { timeoutMs: 5_000 })
  const failures = report.runs.filter((r) => !r.equal).map((r) => \`\${r.chunking}: \${r.error
    ? \`\${r.error.kind} (\${r.error.message})\`
    : r.comparison!.differences.map((d) => \`\${d.field}: \${d.message} [\${d.cause}\${d.frame === null ? '' : \`, frame \${d.frame}\`}]\`).join('; ')}\`)
  expect(failures, failures.join('\\n')).toEqual([])
}, 90_000)
`

function quote(text: string): string {
  return JSON.stringify(text)
}

function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u2028\u2029]+/g, ' ')
}
