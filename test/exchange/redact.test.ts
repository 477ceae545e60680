import { describe, expect, it } from 'vitest'
import { REDACTED, isSecretHeader, isSecretParam, redactBody, redactHeaders, redactUrl } from '../../src/exchange/redact.js'

describe('redactHeaders', () => {
  const table: Array<[string, boolean]> = [
    ['Authorization', true],
    ['authorization', true],
    ['Proxy-Authorization', true],
    ['Cookie', true],
    ['Set-Cookie', true],
    ['x-api-key', true],
    ['X-Goog-Api-Key', true],
    ['api-key', true], // Azure OpenAI
    ['x_api_key', true],
    ['X-ApiKey', true],
    ['x-auth-token', true],
    ['X-Amz-Security-Token', true],
    ['x-csrf-token', true],
    ['x-client-secret', true],
    ['x-session-id', true],
    ['Ocp-Apim-Subscription-Key', true],
    ['openai-organization', true], // identifies the account
    ['openai-project', true],
    ['Authentication', true],
    ['X-Auth-Key', true],
    ['x-bearer', true],
    ['x-passphrase', true],
    ['x-oauth-scopes', false],
    ['anthropic-version', false],
    ['anthropic-beta', false],
    ['content-type', false],
    ['accept', false],
    ['x-request-id', false],
    ['user-agent', false],
    ['idempotency-key', false],
    ['x-ratelimit-remaining-tokens', false], // a count, not a credential
    ['anthropic-ratelimit-tokens-remaining', false],
  ]
  for (const [name, secret] of table) {
    it(`${name} is ${secret ? '' : 'not '}secret`, () => {
      expect(isSecretHeader(name)).toBe(secret)
      expect(redactHeaders([{ name, value: 'v@lue' }])).toEqual([{ name, value: secret ? '[REDACTED]' : 'v@lue' }])
    })
  }

  it('keeps every header, in order, and includes credentials only when asked', () => {
    const headers = [
      { name: 'Authorization', value: 'Bearer sk-proj-abc' },
      { name: 'openai-organization', value: 'org-123' },
      { name: 'x-api-key', value: 'sk-ant-xyz' },
      { name: 'content-type', value: 'application/json' },
    ]
    expect(redactHeaders(headers)).toEqual([
      { name: 'Authorization', value: '[REDACTED]' },
      { name: 'openai-organization', value: '[REDACTED]' },
      { name: 'x-api-key', value: '[REDACTED]' },
      { name: 'content-type', value: 'application/json' },
    ])
    const copy = redactHeaders(headers, true)
    expect(copy).toEqual(headers)
    expect(copy).not.toBe(headers)
    expect(headers[0]!.value).toBe('Bearer sk-proj-abc') // the input is not touched
    expect(REDACTED).toBe('[REDACTED]')
  })
})

describe('redactUrl', () => {
  const table: Array<[string, string]> = [
    [
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=AIzaSyA-secret',
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=[REDACTED]',
    ],
    ['https://x.test/a?api_key=1&apikey=2&api-key=3&apiKey=4', 'https://x.test/a?api_key=[REDACTED]&apikey=[REDACTED]&api-key=[REDACTED]&apiKey=[REDACTED]'],
    ['https://x.test/a?token=1&access_token=2&id_token=3&max_tokens=4', 'https://x.test/a?token=[REDACTED]&access_token=[REDACTED]&id_token=[REDACTED]&max_tokens=4'],
    ['https://acct.blob.core.windows.net/c/b?sv=2024-05-04&se=2025&sig=abc%2Bdef%3D', 'https://acct.blob.core.windows.net/c/b?sv=2024-05-04&se=2025&sig=[REDACTED]'],
    [
      'https://s3.test/o?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA%2F2025&X-Amz-Signature=ff00&X-Amz-Security-Token=tok',
      'https://s3.test/o?X-Amz-Algorithm=AWS4&X-Amz-Credential=[REDACTED]&X-Amz-Signature=[REDACTED]&X-Amz-Security-Token=[REDACTED]',
    ],
    ['https://x.test/a?client_secret=s&password=p&session=q&auth=z', 'https://x.test/a?client_secret=[REDACTED]&password=[REDACTED]&session=[REDACTED]&auth=[REDACTED]'],
    ['https://x.test/a?%6Bey=encoded-name', 'https://x.test/a?%6Bey=[REDACTED]'], // %6B = k
    ['https://x.test/a?q=key&keyword=k&authuser=0', 'https://x.test/a?q=key&keyword=k&authuser=0'],
    ['https://x.test/a?key=1#key=2', 'https://x.test/a?key=[REDACTED]#key=[REDACTED]'],
    ['https://x.test/a#frag?key=1', 'https://x.test/a#frag?key=[REDACTED]'],
    ['https://x.test/a?flag&key=&key=x&&', 'https://x.test/a?flag&key=[REDACTED]&key=[REDACTED]&&'],
    ['https://user:pa%40ss@x.test:8443/p?a=1', 'https://[REDACTED]@x.test:8443/p?a=1'],
    ['https://x.test/v1/chat/completions', 'https://x.test/v1/chat/completions'],
    ['/relative/path?token=t', '/relative/path?token=[REDACTED]'],
    ['', ''],
  ]
  for (const [input, output] of table) {
    it(JSON.stringify(input), () => {
      expect(redactUrl(input)).toBe(output)
      expect(redactUrl(input, true)).toBe(input)
    })
  }

  it('knows the parameter names', () => {
    for (const n of ['key', 'KEY', 'api_key', 'apikey', 'token', 'access_token', 'refresh_token', 'sig', 'signature', 'secret', 'code_verifier', 'code', 'bearer', 'passphrase', 'sessionId']) expect(isSecretParam(n), n).toBe(true)
    for (const n of ['alt', 'model', 'max_tokens', 'stream', 'keyword', 'q', 'state']) expect(isSecretParam(n), n).toBe(false)
  })
})

describe('redactBody', () => {
  it('replaces credential fields of JSON at any depth and keeps the formatting', () => {
    const body = '{\n  "model": "gpt-4o",\n  "api_key": "sk-1",\n  "max_tokens": 100,\n  "nested": {"apiKey":"sk-2", "token" : 42, "ok": [1, {"client_secret": "s"}]},\n  "credentials": {"user": "u", "pass": "p", "n": null}\n}'
    expect(redactBody(body)).toBe(
      '{\n  "model": "gpt-4o",\n  "api_key": "[REDACTED]",\n  "max_tokens": 100,\n  "nested": {"apiKey":"[REDACTED]", "token" : "[REDACTED]", "ok": [1, {"client_secret": "[REDACTED]"}]},\n  "credentials": {"user": "[REDACTED]", "pass": "[REDACTED]", "n": null}\n}',
    )
    expect(redactBody(body, true)).toBe(body)
  })

  it('handles escapes in keys and values', () => {
    expect(redactBody('{"api\\u005fkey":"a\\"b\\\\","x":"\\"api_key\\": \\"no\\""}')).toBe('{"api\\u005fkey":"[REDACTED]","x":"\\"api_key\\": \\"no\\""}')
  })

  it('leaves counters, prompts and non-secret fields alone', () => {
    const body = '{"max_tokens":1,"maxOutputTokens":2,"max_completion_tokens":3,"messages":[{"role":"user","content":"my api_key is sk-123"}],"stream":true,"prompt_cache_key":"k"}'
    expect(redactBody(body)).toBe(body)
  })

  it('redacts form-encoded bodies like query strings', () => {
    expect(redactBody('grant_type=refresh&refresh_token=abc&client_id=x')).toBe('grant_type=refresh&refresh_token=[REDACTED]&client_id=x')
  })

  it('replaces a body it cannot read by a note (it may hold a secret no rule can find), keeps JSON without secrets as it is', () => {
    for (const t of ['hello api_key=1 world', '{"api_key": "unterminated', '{"api_key":"x"} trailing', '[1,2']) {
      expect(redactBody(t)).toBe(`[REDACTED] a request body of ${t.length} characters that is not JSON, NDJSON, a form or multipart was left out: export with credentials to keep it`)
      expect(redactBody(t, true)).toBe(t)
    }
    for (const t of ['', ' \n', 'null', '[1,2]']) expect(redactBody(t)).toBe(t)
    expect(redactBody('["a", {"token": "t"}]')).toBe('["a", {"token": "[REDACTED]"}]')
  })

  it('copes with very deep JSON without throwing', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000)
    expect(redactBody(deep)).toBe(deep)
  })
})
