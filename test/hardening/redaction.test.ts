// Secrets in an export: redaction gaps the defaults once had. Headers OpenAI-Organization, OpenAI-Project,
// Authentication, X-Auth-Key and any Bearer-valued header were kept; URL fragments, `;`
// separated keys and `code=` were kept, and a token in the URL path landed in the export's file
// name; a request body that was not strict JSON or a simple form was passed through whole;
// sessionId, bearer, passphrase were not caught; a key echoed in the response body was
// exported as is. Now every one is redacted, exactly, and the export says what it removed.

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { assembleBody, utf8Encode } from '../../src/exchange/bytes.js'
import { exportFileName } from '../../src/exchange/filename.js'
import { checkFixture, fixtureToJson, parseFixture, replayFixture, toFixture } from '../../src/exchange/fixture.js'
import { toHar } from '../../src/exchange/har.js'
import { toCurl } from '../../src/exchange/curl.js'
import { checkRedactionRules, redactBody, redactHeaders, redactListed, redactRecording, redactUrl, rulesFromLines } from '../../src/exchange/redact.js'
import { toTestFile } from '../../src/exchange/testfile.js'
import type { CapturedRequest, Recording } from '../../src/exchange/types.js'
import { createMerger } from '../../src/library.js'
import { runExport } from '../../panel/exports.js'
import type { PanelShell } from '../../panel/shell.js'
import type { ExportSource } from '../../panel/store/index.js'
import { createRedactionSettings, fromStored } from '../../panel/store/redaction.js'
import { capturedRequest } from '../support/requests.js'

const R = '[REDACTED]'
const NOTE = (n: number) => `[REDACTED] a request body of ${n} characters that is not JSON, NDJSON, a form or multipart was left out: export with credentials to keep it`

const request = (overrides: Partial<CapturedRequest> = {}): CapturedRequest =>
  capturedRequest({ id: 'r', startedAt: Date.UTC(2025, 0, 2, 3, 4, 5), source: 'live', ...overrides })

describe('headers', () => {
  it('OpenAI-Organization, OpenAI-Project, Authentication, X-Auth-Key and any Bearer value', () => {
    const headers = [
      { name: 'OpenAI-Organization', value: 'org-abc' }, { name: 'OpenAI-Project', value: 'proj_abc' },
      { name: 'Authentication', value: 'secret' }, { name: 'X-Auth-Key', value: 'k' },
      { name: 'X-Upstream', value: 'Bearer sk-live-123' }, { name: 'X-Basic', value: 'basic dXNlcjpwYXNz' },
      { name: 'Accept', value: 'text/event-stream' }, { name: 'Idempotency-Key', value: 'abc' },
    ]
    expect(redactHeaders(headers).map((h) => h.value)).toEqual([R, R, R, R, R, R, 'text/event-stream', 'abc'])
  })

  it('response headers too: a Bearer value, Set-Cookie, an auth word; counters such as x-ratelimit-remaining-tokens are kept', () => {
    const out = redactRecording({
      request: request({
        responseHeaders: [
          { name: 'X-Echo-Auth', value: 'Bearer sk-echoed-0123' }, { name: 'Set-Cookie', value: 'sid=abc123def; Path=/' },
          { name: 'X-Auth-Token', value: 't0k3n-value' }, { name: 'x-ratelimit-remaining-tokens', value: '39000' },
        ],
      }),
      chunks: [],
    })
    expect(out.request.responseHeaders.map((h) => h.value)).toEqual([R, R, R, '39000'])
    expect(out.redactions.map((r) => `${r.where} ${r.name}`)).toEqual(['response header X-Echo-Auth', 'response header Set-Cookie', 'response header X-Auth-Token'])
  })
})

describe('URLs', () => {
  const table: Array<[string, string]> = [
    ['https://app.test/cb#access_token=ya29.abc&token_type=Bearer&expires_in=3599', `https://app.test/cb#access_token=${R}&token_type=Bearer&expires_in=3599`],
    ['https://app.test/#/callback?code=4/0Ab&state=xyz', `https://app.test/#/callback?code=${R}&state=xyz`],
    ['https://x.test/a?alt=sse;key=AIzaSyA;v=1', `https://x.test/a?alt=sse;key=${R};v=1`],
    ['https://x.test/oauth/token?grant_type=authorization_code&code=SplxlOBeZQQYbYS6WxSbIA', `https://x.test/oauth/token?grant_type=authorization_code&code=${R}`],
    ['https://x.test/v1/keys/abc123secret/usage', `https://x.test/v1/keys/${R}/usage`],
    ['https://proxy.test/sk-proj-0123456789abcdef/v1/chat/completions', `https://proxy.test/${R}/v1/chat/completions`],
    ['https://api.telegram.org/bot123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage', `https://api.telegram.org/${R}/sendMessage`],
    ['https://x.test/app;jsessionid=0A1B2C3D4E/v1?x=1', `https://x.test/app;jsessionid=${R}/v1?x=1`],
    ['https://x.test/v1/chat/completions?model=gpt&stream=true', 'https://x.test/v1/chat/completions?model=gpt&stream=true'],
  ]
  for (const [input, output] of table) {
    it(input, () => {
      expect(redactUrl(input)).toBe(output)
      expect(redactUrl(input, true)).toBe(input)
    })
  }

  it('a token in the path never names the export file, with or without credentials', () => {
    const at = Date.UTC(2025, 0, 2, 3, 4, 5)
    expect(exportFileName({ url: 'https://proxy.test/sk-proj-0123456789abcdef/v1/chat/completions', startedAt: at }, 'fixture'))
      .toBe('proxy.test_v1-chat-completions_2025-01-02T03-04-05Z.deltascope.json')
    expect(exportFileName({ url: 'https://api.telegram.org/bot123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage', startedAt: at }, 'har'))
      .toBe('api.telegram.org_sendMessage_2025-01-02T03-04-05Z.har')
    expect(exportFileName({ url: 'https://x.test/v1/keys/abc123secret', startedAt: at }, '.sse')).toBe('x.test_v1-keys_2025-01-02T03-04-05Z.sse')
  })
})

describe('request bodies in any format', () => {
  it('field names: sessionId, bearer, passphrase, session_key', () => {
    expect(redactBody('{"sessionId":"s1","bearer":"b1","passphrase":"p1","session_key":"k1","session_count":3}'))
      .toBe(`{"sessionId":"${R}","bearer":"${R}","passphrase":"${R}","session_key":"${R}","session_count":3}`)
  })

  it('field names as clients write them: x-api-key, secretAccessKey, sessionToken, refresh_token, pwd; counters and a thinking signature kept', () => {
    expect(redactBody('{"x-api-key":"a1","secretAccessKey":"a2","sessionToken":"a3","refresh_token":"a4","pwd":"a5","max_tokens":9,"signature":"sig","total_tokens":3}'))
      .toBe(`{"x-api-key":"${R}","secretAccessKey":"${R}","sessionToken":"${R}","refresh_token":"${R}","pwd":"${R}","max_tokens":9,"signature":"sig","total_tokens":3}`)
  })

  it('JSON after a byte order mark', () => {
    expect(redactBody('\ufeff{"api_key":"sk-1","model":"m"}')).toBe(`\ufeff{"api_key":"${R}","model":"m"}`)
  })

  it('NDJSON, line by line, line endings kept', () => {
    expect(redactBody('{"token":"a"}\r\n{"model":"m"}\n\n{"password":"p"}\n')).toBe(`{"token":"${R}"}\r\n{"model":"m"}\n\n{"password":"${R}"}\n`)
  })

  it('multipart/form-data: secret parts by name, JSON parts by field, files kept', () => {
    const body = [
      '--XyZ', 'Content-Disposition: form-data; name="api_key"', '', 'sk-123',
      '--XyZ', 'Content-Disposition: form-data; name="meta"', 'Content-Type: application/json', '', '{"token":"t","n":1}',
      '--XyZ', 'Content-Disposition: form-data; name="file"; filename="a.txt"', '', 'hello',
      '--XyZ--', '',
    ].join('\r\n')
    expect(redactBody(body)).toBe(body.replace('\r\n\r\nsk-123', `\r\n\r\n${R}`).replace('{"token":"t"', `{"token":"${R}"`))
  })

  it('deep nesting (20,000 levels) is read, and the secret inside redacted', () => {
    const body = '['.repeat(20_000) + '{"secret":"s3cret!"}' + ']'.repeat(20_000)
    expect(redactBody(body)).toBe('['.repeat(20_000) + `{"secret":"${R}"}` + ']'.repeat(20_000))
  })

  it('NDJSON after a byte order mark, and multipart with bare LF line endings', () => {
    expect(redactBody('\ufeff{"token":"a"}\n{"n":1}\n')).toBe(`\ufeff{"token":"${R}"}\n{"n":1}\n`)
    const body = '--b\nContent-Disposition: form-data; name="passphrase"\n\nopen sesame\n--b\nContent-Disposition: form-data; name="q"\n\nhi\n--b--\n'
    expect(redactBody(body)).toBe(body.replace('open sesame', R))
  })

  it('a 100,000-level body goes through a whole fixture export: no throw, the secret inside redacted and its echo in the response too', () => {
    const secret = 'deep-secret-0123456789'
    const requestBody = '{"a":'.repeat(100_000) + `{"password":"${secret}"}` + '}'.repeat(100_000)
    const fixture = toFixture({ request: request({ requestBody }), chunks: [{ data: `data: {"choices":[{"index":0,"delta":{"content":"${secret}"}}]}\n\n`, t: null }] })
    expect(fixture.request.body).toBe(requestBody.replace(secret, R))
    expect(fixture.expected.choices[0]!.content).toBe(R)
    expect(fixture.meta.redactions).toEqual([{ where: 'request body', name: 'password' }, { where: 'response body', name: 'value of request body password' }])
  })

  it('a body in no readable format is replaced by a note, unless credentials are included', () => {
    const xml = '<auth><key>sk-123</key></auth>'
    expect(redactBody(xml)).toBe(NOTE(xml.length))
    expect(redactBody(xml, true)).toBe(xml)
  })
})

describe('an echoed secret, found by value', () => {
  const token = 'ECHOED-0123456789abc'
  const echoed = `data: {"choices":[{"index":0,"delta":{"content":"your key is ${token}, héhé"}}]}\n\ndata: [DONE]\n\n`
  const bytes = utf8Encode(echoed)
  const cutAt = [20, echoed.indexOf(token) + 5, echoed.indexOf(token) + 12, bytes.indexOf(0xc3) + 1]
  const chunks = [0, ...cutAt, bytes.length].slice(1).map((end, i, ends) => ({ data: bytes.slice(i === 0 ? 0 : ends[i - 1], end), t: 1000 + i }))
  const recording: Recording = {
    request: request({
      requestHeaders: [{ name: 'Authorization', value: `Bearer ${token}` }],
      url: `https://x.test/v1/${token}/chat/completions`,
      requestBody: `{"note":"${token}"}`,
    }),
    chunks,
  }

  it('is replaced in the URL, the request body and the response body; the chunks still add up, every other byte in its chunk', () => {
    const out = redactRecording(recording)
    expect(out.request.url).toBe(`https://x.test/v1/${R}/chat/completions`)
    expect(out.request.requestBody).toBe(`{"note":"${R}"}`)
    const body = assembleBody(out.chunks.map((c) => c.data))
    expect(body.text).toBe(echoed.replace(token, R))
    expect(body.bytes).toBeUndefined()
    // the occurrence spans chunks 1–3: the placeholder sits in chunk 1, chunk 2 lost its bytes, the rest is as cut
    const sizes = out.chunks.map((c) => (typeof c.data === 'string' ? utf8Encode(c.data).length : c.data.length))
    const original = chunks.map((c) => c.data.length)
    expect(sizes).toEqual([original[0], original[1]! + R.length - 5, 0, original[3]! - (token.length - 12), original[4]])
    expect(out.chunks.map((c) => c.t)).toEqual(chunks.map((c) => c.t))
    expect(out.chunks[0]).toBe(chunks[0]) // untouched chunks are kept as they were
    expect(out.redactions).toEqual([
      { where: 'request header', name: 'Authorization' },
      { where: 'url', name: 'value of request header Authorization' },
      { where: 'request body', name: 'value of request header Authorization' },
      { where: 'response body', name: 'value of request header Authorization' },
    ])
    expect(out.bodyChanged).toBe(true)
  })

  it('the fixture lists what it removed, replays to its expected Reply, and parses back', () => {
    const fixture = toFixture(recording, { exportedAt: '2025-01-02T00:00:00.000Z' })
    const json = fixtureToJson(fixture)
    expect(json).not.toContain('ECHOED')
    expect(fixture.expected.choices[0]!.content).toBe(`your key is ${R}, héhé`)
    expect(replayFixture(fixture)).toEqual(fixture.expected)
    expect(checkFixture(fixture)).toEqual([])
    expect(fixture.meta.redactions).toEqual(redactRecording(recording).redactions)
    expect(parseFixture(json).meta.redactions).toEqual(fixture.meta.redactions)
    expect(toFixture(recording, { includeCredentials: true }).meta).not.toHaveProperty('redactions')
  })

  it('the HAR says it in the entry\'s comment', () => {
    const har = JSON.stringify(toHar([recording]))
    expect(har).not.toContain('ECHOED')
    expect(toHar([recording]).log.entries[0]!.comment).toBe(
      'Redacted by Deltascope: request header Authorization; url value of request header Authorization; request body value of request header Authorization; response body value of request header Authorization',
    )
  })

  it('values shorter than 6 characters are not looked for', () => {
    const out = redactRecording({ request: request({ url: 'https://x.test/a?key=abc12' }), chunks: [{ data: 'abc12 abc12', t: null }] })
    expect(out.chunks[0]!.data).toBe('abc12 abc12')
  })

  it('a name the user adds is redacted like the defaults', () => {
    const out = redactRecording({
      request: request({ requestHeaders: [{ name: 'X-Tenant', value: 'tenant-42' }], requestBody: '{"tenant":"tenant-42"}' }),
      chunks: [],
    }, { names: ['x-tenant', 'TENANT'] })
    expect(out.request.requestHeaders).toEqual([{ name: 'X-Tenant', value: R }])
    expect(out.request.requestBody).toBe(`{"tenant":"${R}"}`)
  })
})

describe('parseFixture checks meta.redactions', () => {
  const base = JSON.parse(fixtureToJson(toFixture({ request: request(), chunks: [] }, { exportedAt: '2025-01-02T00:00:00.000Z' }))) as Record<string, Record<string, unknown>>
  it('an optional list of {where, name}', () => {
    expect(parseFixture(base).meta.redactions).toEqual([])
    const without = { ...base, meta: { ...base['meta'], redactions: undefined } }
    expect(parseFixture(JSON.parse(JSON.stringify(without))).meta).not.toHaveProperty('redactions')
  })
  it.each([
    [{ where: 'url' }, 'meta.redactions[0].name: expected a string, got nothing'],
    [{ where: 'cookie jar', name: 'x' }, 'meta.redactions[0].where: expected one of "url", "request header", "response header", "request body", "response body", got "cookie jar"'],
    ['x', 'meta.redactions[0]: expected an object {where, name}, got "x"'],
  ])('%j', (entry, message) => {
    expect(() => parseFixture({ ...base, meta: { ...base['meta'], redactions: [entry] } })).toThrow(message)
  })
})

describe("the user's list: names, values and patterns", () => {
  const value = 'tenant-7f3a9'
  const key = 'sk-live-A1b2C3d4E5f6'
  const body = `data: {"choices":[{"index":0,"delta":{"content":"for ${value}: ${key} \\"${value}\\""}}]}\n\ndata: [DONE]\n\n`
  const bytes = utf8Encode(body)
  const keyAt = body.indexOf(key)
  // the key arrives cut in two chunks
  const chunks = [bytes.slice(0, keyAt + 9), bytes.slice(keyAt + 9)].map((data, i) => ({ data, t: 10 + i }))
  const recording: Recording = {
    request: request({
      url: `https://${value}.llm.test/v1/${value}/chat?project=${value}&team=blue`,
      requestHeaders: [{ name: 'X-Tenant', value: `t=${value}` }, { name: 'X-Team', value: 'blue' }, { name: 'X-Client-Key', value: key }],
      requestBody: `{"team":"blue","note":"sent by ${value}","nested":{"team":"blue"}}`,
    }),
    chunks,
  }
  const rules = { names: ['team'], values: [value], patterns: ['sk-live-*'] }

  it('a listed name is redacted in the URL query, the headers and the body at any depth', () => {
    const out = redactRecording(recording, { names: ['team', 'X-Team'] })
    expect(out.request.url).toBe(`https://${value}.llm.test/v1/${value}/chat?project=${value}&team=${R}`)
    expect(out.request.requestHeaders.map((h) => h.value)).toEqual([`t=${value}`, R, key])
    expect(out.request.requestBody).toBe(`{"team":"${R}","note":"sent by ${value}","nested":{"team":"${R}"}}`)
  })

  it('a listed value is replaced wherever it appears: URL host, path and query, any header, the request body, the response body as written and JSON-escaped', () => {
    const out = redactRecording(recording, rules)
    expect(out.request.url).toBe(`https://${R}.llm.test/v1/${R}/chat?project=${R}&team=${R}`)
    expect(out.request.requestHeaders).toEqual([{ name: 'X-Tenant', value: `t=${R}` }, { name: 'X-Team', value: 'blue' }, { name: 'X-Client-Key', value: R }])
    expect(out.request.requestBody).toBe(`{"team":"${R}","note":"sent by ${R}","nested":{"team":"${R}"}}`)
    expect(assembleBody(out.chunks.map((c) => c.data)).text).toBe(`data: {"choices":[{"index":0,"delta":{"content":"for ${R}: ${R} \\"${R}\\""}}]}\n\ndata: [DONE]\n\n`)
  })

  it('a pattern is matched across network chunks; the placeholder sits in the chunk where the match starts', () => {
    const out = redactRecording(recording, { patterns: ['sk-live-*'] })
    expect(out.chunks.map((c) => c.t)).toEqual([10, 11])
    const [first, second] = out.chunks.map((c) => (typeof c.data === 'string' ? c.data : new TextDecoder().decode(c.data)))
    expect(first).toBe(body.slice(0, keyAt) + R)
    expect(second).toBe(body.slice(keyAt + key.length))
    expect(out.request.requestHeaders[2]).toEqual({ name: 'X-Client-Key', value: R })
  })

  it('the export lists each rule that removed something, by its place in the list, never the value itself', () => {
    const out = redactRecording(recording, rules)
    expect(out.redactions).toEqual([
      { where: 'url', name: 'team' },
      { where: 'request body', name: 'team' },
      { where: 'url', name: 'listed value 1' },
      { where: 'request header', name: 'listed value 1' },
      { where: 'request header', name: 'listed pattern 1' },
      { where: 'request body', name: 'listed value 1' },
      { where: 'response body', name: 'listed value 1' },
      { where: 'response body', name: 'listed pattern 1' },
    ])
    expect(JSON.stringify(out.redactions)).not.toContain(value)
  })

  it('a listed value or pattern never names the export file: a path segment holding it is left out, a host holding it too', () => {
    expect(exportFileName(recording.request, 'fixture', rules)).toBe('v1-chat_2025-01-02T03-04-05Z.deltascope.json')
    expect(exportFileName(recording.request, 'fixture')).toBe(`${value}.llm.test_v1-${value}-chat_2025-01-02T03-04-05Z.deltascope.json`)
  })

  it('every export applies it: fixture (meta.redactions), HAR (the comment), cURL, test file; none holds the value or the key', () => {
    const options = { redactNames: rules.names, redactValues: rules.values, redactPatterns: rules.patterns, exportedAt: '2025-01-02T00:00:00.000Z' }
    const fixture = toFixture(recording, options)
    expect(fixture.meta.redactions).toEqual(redactRecording(recording, rules).redactions)
    expect(fixture.expected.choices[0]!.content).toBe(`for ${R}: ${R} "${R}"`)
    const har = toHar([recording], options)
    expect(har.log.entries[0]!.comment).toContain('response body listed pattern 1')
    const texts = [fixtureToJson(fixture), JSON.stringify(har), toCurl(recording.request, options), toTestFile(fixture)]
    for (const text of texts) {
      expect(text).not.toContain(value)
      expect(text).not.toContain('A1b2C3d4E5f6')
    }
  })

  it('with credentials included, nothing is redacted, the list neither', () => {
    const out = redactRecording(recording, { ...rules, includeCredentials: true })
    expect(out.request).toBe(recording.request)
    expect(out.chunks).toBe(recording.chunks)
    expect(out.redactions).toEqual([])
  })

  it('redactListed replaces only the listed values and patterns, no default rule', () => {
    expect(redactListed(`Bearer x ${value} sk-live-zzzz9`, rules)).toBe(`Bearer x ${R} ${R}`)
    expect(redactListed('unchanged', {})).toBe('unchanged')
  })
})

describe('patterns: what * and ? match', () => {
  const run = (pattern: string, text: string) => redactListed(text, { patterns: [pattern] })
  it.each([
    ['sk-live-*', 'a sk-live-abc_DEF.9 b', `a ${R} b`],
    ['sk-live-*', 'sk-live- alone', 'sk-live- alone'], // * takes at least one character
    ['*@corp.example', 'mail alice.smith@corp.example now', `mail ${R} now`],
    ['*@corp.example', 'x=bob@corp.example', R], // '=' is a token character: the token is "x=bob"
    ['org-????', 'org-abcd org-abc org-abcde', `${R} org-abc ${R}e`],
    ['key\\*1', 'key*1 keyX1', `${R} keyX1`],
    ['café-*', 'café-x1 café-', `${R} café-`], // literal characters may be any
    ['café-*', 'café-crème', `${R}ème`], // the token characters are ASCII: a * stops at "è"
  ])('%s in %j', (pattern, text, expected) => {
    expect(run(pattern, text)).toBe(expected)
  })

  it('a * takes the whole token, however long (a long JWT is not cut)', () => {
    const jwt = 'eyJ' + 'a'.repeat(5000) + '.' + 'b'.repeat(3000)
    expect(run('eyJ*', `token ${jwt} end`)).toBe(`token ${R} end`)
    expect(run('*@x.test', `${'a'.repeat(5000)}@x.test`)).toBe(R)
  })

  it('256 KB of one token character against every shape of pattern ends with no match (each * is read once: linear)', () => {
    const hostile = 'a'.repeat(1 << 18)
    for (const p of ['*@x.test', 'aaa*!', 'aaa?*!', '?aa*!', 'aaa*!a*!']) expect(run(p, hostile)).toBe(hostile)
  })
})

describe('checkRedactionRules: an entry that cannot be used is left out and said why', () => {
  it('trims names and patterns, keeps a value exact, drops blanks and repeats (names case-insensitively)', () => {
    expect(checkRedactionRules({ names: [' X-Team ', 'x-team', ''], values: [' tenant-1 ', 'tenant-1', '   '], patterns: [' sk-* ', 'sk-*'] })).toEqual({
      rules: { names: ['X-Team'], values: [' tenant-1 ', 'tenant-1'], patterns: ['sk-*'] },
      problems: [],
    })
  })

  it('a value under 4 characters, a pattern without 3 characters of its own, a * that can never match', () => {
    const { rules, problems } = checkRedactionRules({ values: ['abc', 'abcd'], patterns: ['*?*', 'a*', 'sk-*abc', 'ab?*'] })
    expect(rules).toEqual({ names: [], values: ['abcd'], patterns: [] })
    expect(problems).toEqual([
      { list: 'values', entry: 'abc', message: 'shorter than 4 characters: it would be found everywhere' },
      { list: 'patterns', entry: '*?*', message: 'a * followed by another wildcard: use one *' },
      { list: 'patterns', entry: 'a*', message: 'needs at least 3 characters besides * and ?: it would match almost anything' },
      { list: 'patterns', entry: 'sk-*abc', message: 'the * before "a" takes the whole rest of the token, so "a" never follows it: end the pattern at the *, or follow it with a character that is not a letter, digit or ._~+/=-' },
      { list: 'patterns', entry: 'ab?*', message: 'needs at least 3 characters besides * and ?: it would match almost anything' },
    ])
  })

  it('at most 200 entries per list, 1,000 characters each', () => {
    const many = Array.from({ length: 202 }, (_, i) => `value-${i}`)
    const { rules, problems } = checkRedactionRules({ values: [...many, 'x'.repeat(1001)] })
    expect(rules.values).toEqual(many.slice(0, 200))
    expect(problems.map((p) => p.message)).toEqual(['more than 200 entries', 'more than 200 entries', 'longer than 1000 characters'])
  })

  it('rulesFromLines reads one entry per line of each box', () => {
    expect(rulesFromLines({ names: 'a\r\nb\n', values: 'tenant-1\n', patterns: '' }).rules).toEqual({ names: ['a', 'b'], values: ['tenant-1'], patterns: [] })
  })
})

describe('the panel: every export applies the list and says what it removed', () => {
  const key = 'sk-live-Zz9Yy8Xx7'
  const value = 'tenant-7f3a9'
  const body = `data: {"choices":[{"index":0,"delta":{"content":"hi ${value} ${key}"}}]}\n\ndata: [DONE]\n\n`
  const recording: Recording = {
    request: request({
      url: `https://api.openai.com/v1/chat/completions?tenant=${value}`,
      requestHeaders: [{ name: 'Authorization', value: 'Bearer sk-proj-0123456789' }],
      requestBody: '{"model":"m"}',
    }),
    chunks: [{ data: body, t: null }],
  }
  const source: ExportSource = {
    ...recording, expected: replayFixture(toFixture(recording)), state: 'finished', transport: 'sse', truncated: false,
    frames: async () => { const m = createMerger({ transport: 'sse' }); m.push(body); m.end(); return m.frames() },
  }
  const rules = { names: [], values: [value], patterns: ['sk-live-*'] }
  const saved: Array<{ name: string; content: string }> = []
  const shell = {
    kind: 'inline', connect: () => () => {}, theme: () => 'light', onThemeChange: () => () => {},
    save: (name: string, _mime: string, content: string) => { saved.push({ name, content }) },
    copy: async (text: string) => { saved.push({ name: 'clipboard', content: text }) },
  } as unknown as PanelShell

  it.each([
    ['fixture', 'Saved api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.deltascope.json (redacted: request header Authorization; url listed value 1; response body listed value 1; and 1 more)'],
    ['har', 'Saved api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.har (redacted: request header Authorization; url listed value 1; response body listed value 1; and 1 more)'],
    ['test', 'Saved api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.test.ts (redacted: request header Authorization; url listed value 1; response body listed value 1; and 1 more)'],
    ['raw', 'Saved api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.sse (redacted: response body listed value 1; response body listed pattern 1)'],
    ['jsonl', 'Saved api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.jsonl (1 line, 1 frame left out) (redacted: response body listed value 1; response body listed pattern 1)'],
    ['curl', 'Copied the cURL command (redacted: request header Authorization; url listed value 1)'],
  ] as const)('%s', async (action, message) => {
    saved.length = 0
    expect(await runExport(action, source, shell, false, rules)).toBe(message)
    expect(saved).toHaveLength(1)
    expect(saved[0]!.content).not.toContain(value)
    expect(saved[0]!.content).not.toContain('Zz9Yy8Xx7')
    expect(saved[0]!.content).not.toContain('0123456789')
  })

  it('with credentials included, everything is kept and the message says so', async () => {
    saved.length = 0
    expect(await runExport('raw', source, shell, true, rules)).toBe('Saved api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.sse (with credentials)')
    expect(saved[0]!.content).toBe(body)
  })
})

describe('the panel keeps the list through the shell', () => {
  const memory = () => {
    let kept: string | null = null
    return { store: { load: async () => kept, save: async (v: string) => { kept = v } }, kept: () => kept }
  }

  it('apply checks the boxes, applies at once, saves versioned JSON, and gives back what it left out', async () => {
    const m = memory()
    const settings = createRedactionSettings(m.store)
    await settings.ready
    const left = await settings.apply({ names: 'X-Tenant\n', values: 'tenant-1\nab', patterns: 'sk-*' })
    expect(settings.rules.value).toEqual({ names: ['X-Tenant'], values: ['tenant-1'], patterns: ['sk-*'] })
    expect(left).toEqual([{ list: 'values', entry: 'ab', message: 'shorter than 4 characters: it would be found everywhere' }])
    expect(m.kept()).toBe('{"version":1,"names":["X-Tenant"],"values":["tenant-1"],"patterns":["sk-*"]}')
    const again = createRedactionSettings(m.store)
    await again.ready
    expect(again.rules.value).toEqual(settings.rules.value)
  })

  it('a stored list is checked like typed text: unusable entries are left out and said', async () => {
    const settings = createRedactionSettings({ load: async () => '{"version":1,"names":[1,"a"],"values":["xy","long-enough"],"patterns":"nope"}', save: async () => {} })
    await settings.ready
    expect(settings.rules.value).toEqual({ names: ['a'], values: ['long-enough'], patterns: [] })
    expect(settings.status.value).toBe('The stored redaction list had 1 unusable entry, left out')
    expect(fromStored('not json').rules).toEqual({ names: [], values: [], patterns: [] })
  })

  it('storage that refuses is said; the list still applies', async () => {
    const settings = createRedactionSettings({ load: async () => { throw new Error('denied') }, save: async () => { throw new Error('quota') } })
    await settings.ready
    expect(settings.status.value).toBe('The redaction list could not be read: denied')
    await settings.apply({ names: '', values: 'tenant-1', patterns: '' })
    expect(settings.rules.value.values).toEqual(['tenant-1'])
    expect(settings.status.value).toBe('The redaction list could not be saved (it applies until the panel closes): quota')
  })

  it('without a store the list lasts as long as the panel', async () => {
    const settings = createRedactionSettings()
    await settings.apply({ names: 'a', values: '', patterns: '' })
    expect(settings.rules.value.names).toEqual(['a'])
    expect(settings.status.value).toBe('')
  })
})

describe('the pattern matcher equals its definition (property test)', () => {
  // The definition, as a regular expression that is safe only on these small inputs: each `*`
  // an atomic run of token characters (a lookahead capture, then its backreference), a leading
  // `*` only where a token starts, `?` one token character.
  const T = '[A-Za-z0-9._~+/=\\-]'
  const reference = (pieces: string[]) => {
    let group = 0
    const source = pieces.map((p, i) => {
      if (p === '*') { group++; return `${i === 0 ? `(?<!${T})` : ''}(?=(${T}+))\\${group}` }
      if (p === '?') return T
      return p.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
    }).join('')
    return new RegExp(source, 'g')
  }
  const alphabet = ['a', 'b', '-', '.', '@', ' ', '"', 'é', '=']
  const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }).map((a) => a.join(''))
  // literal pieces of 1-3 characters, wildcards between them never followed by a token character
  // literal pieces of 1-3 characters and wildcards; a `*` is never followed by a wildcard or a token character (refused)
  const pattern = fc.array(fc.oneof(fc.constantFrom('*', '?'), fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 3 }).map((a) => a.join(''))), { minLength: 1, maxLength: 4 })
    .map((pieces) => pieces.reduce<string[]>((out, p) => (out[out.length - 1] === '*' && (p === '*' || p === '?' || /^[A-Za-z0-9._~+/=-]/.test(p)) ? out : [...out, p]), []))
    // (a pattern loses its surrounding spaces, as typed in the panel)
    .filter((pieces) => pieces.join('').replace(/[*?]/g, '').length >= 3 && pieces.join('').trim() === pieces.join(''))

  // texts that hold near-instances of the pattern: each `*` as 0-4 token characters (0: not a match), each `?` as any character
  const instance = (pieces: string[]) => fc.tuple(...pieces.map((p) => (p === '*'
    ? fc.array(fc.constantFrom('a', 'b', '-', '.', '='), { maxLength: 4 }).map((a) => a.join(''))
    : p === '?' ? fc.constantFrom(...alphabet) : fc.constant(p)))).map((parts) => parts.join(''))
  const case_ = pattern.chain((pieces) => fc.tuple(fc.array(fc.oneof(text, instance(pieces)), { maxLength: 6 }).map((a) => a.join('')), fc.constant(pieces)))

  it('in text and in UTF-8 bytes, every match is the one the definition gives', () => {
    let matched = 0
    fc.assert(fc.property(case_, ([t, pieces]) => {
      const expected = [...t.matchAll(reference(pieces))].map((m) => [m.index, m.index + m[0].length])
      const written = pieces.join('')
      const redacted = expected.reduceRight((s, [a, b]) => s.slice(0, a) + R + s.slice(b), t)
      expect(redactListed(t, { patterns: [written] })).toBe(redacted)
      // in bytes: the same matches, at their UTF-8 offsets (the chunks are cut after every byte)
      const bytes = utf8Encode(t)
      const out = redactRecording({ request: request(), chunks: Array.from(bytes, (b, i) => ({ data: bytes.slice(i, i + 1), t: i })) }, { patterns: [written] })
      expect(assembleBody(out.chunks.map((c) => c.data)).text).toBe(redacted)
      if (expected.length > 0) matched++
    }), { seed: 15, numRuns: 2000 })
    // most cases hold a match (the property is not passed on texts that match nothing)
    expect(matched).toBeGreaterThan(1000)
  })
})

describe('overlapping secrets', () => {
  it('two removed values that overlap are replaced as one: no character of either is kept, in the request and in the response chunks', () => {
    const out = redactRecording({
      request: request({ requestHeaders: [{ name: 'X-Api-Key', value: 'abcdef123' }], requestBody: '{"note":"abcdef123xyz"}' }),
      chunks: [{ data: 'data: {"x":"abcdef123xyz"}\n\n', t: null }],
    }, { values: ['123xyz'] })
    expect(out.request.requestBody).toBe(`{"note":"${R}"}`)
    expect(out.chunks[0]!.data).toBe(`data: {"x":"${R}"}\n\n`)
  })
})
