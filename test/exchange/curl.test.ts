import { execFile, execFileSync } from 'node:child_process'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { shellQuote, toCurl } from '../../src/exchange/curl.js'
import { request } from './support.js'

/** The argv a shell hands to `curl` for this command (curl replaced by a function that prints its arguments). */
function argv(shell: string, command: string): string[] {
  const out = execFileSync(shell, ['-c', `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}`], { encoding: 'utf8' })
  return out.split('\0').slice(0, -1)
}

const NASTY = `it's "quoted" $HOME $(touch /tmp/pwned) \`id\` \\ back\\slash !bang\nline two\ttab\r\n'' end ü 🌍 %s \\n`

describe('shellQuote', () => {
  it('leaves plain words bare and single-quotes the rest', () => {
    expect(shellQuote('https://x.test/a-b_c.d:8080/p%20q')).toBe('https://x.test/a-b_c.d:8080/p%20q')
    expect(shellQuote('')).toBe("''")
    expect(shellQuote('a b')).toBe("'a b'")
    expect(shellQuote("it's")).toBe("'it'\\''s'")
    expect(shellQuote('$x')).toBe("'$x'")
  })

  for (const shell of ['bash', 'dash']) {
    it(`round-trips nasty strings through ${shell}`, () => {
      const strings = [NASTY, "'", "''", '\\', '"', '$', '`', '\n', '-X', '*', '~', '#x', 'a;b|c&d', '{a,b}', '[x]', '!!', '\u00a0']
      expect(argv(shell, 'curl ' + strings.map(shellQuote).join(' '))).toEqual(strings)
    })
  }
})

describe('toCurl', () => {
  it('writes method, headers, body and --no-buffer, redacted by default', () => {
    expect(toCurl(request())).toBe([
      'curl https://api.openai.com/v1/chat/completions \\',
      "  -H 'Authorization: [REDACTED]' \\",
      "  -H 'Content-Type: application/json' \\",
      "  -H 'openai-organization: [REDACTED]' \\",
      `  --data-raw '{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"hi"}]}' \\`,
      '  --no-buffer',
    ].join('\n'))
    expect(toCurl(request(), { includeCredentials: true })).toContain("-H 'Authorization: Bearer sk-proj-SECRET'")
  })

  it('redacts keys in the URL and the body, and turns globbing off for [REDACTED]', () => {
    const cmd = toCurl(request({
      url: 'https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent?alt=sse&key=AIza-secret',
      requestHeaders: [{ name: 'x-goog-api-key', value: 'AIza-secret' }],
      requestBody: '{"api_key":"AIza-secret","contents":[]}',
    }))
    expect(cmd).not.toContain('AIza-secret')
    expect(argv('bash', cmd)).toEqual([
      'https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent?alt=sse&key=[REDACTED]',
      '--globoff',
      '-H', 'x-goog-api-key: [REDACTED]',
      '--data-raw', '{"api_key":"[REDACTED]","contents":[]}',
      '--no-buffer',
    ])
  })

  it('adds -X only when curl would not infer the method', () => {
    const args = (method: string, body: string | null) => argv('sh', toCurl(request({ method, requestBody: body, requestHeaders: [] })))
    expect(args('POST', '{}')).toEqual(['https://api.openai.com/v1/chat/completions', '--data-raw', '{}', '--no-buffer'])
    expect(args('GET', null)).toEqual(['https://api.openai.com/v1/chat/completions', '--no-buffer'])
    expect(args('POST', null)).toEqual(['https://api.openai.com/v1/chat/completions', '-X', 'POST', '--no-buffer'])
    expect(args('PUT', '"x"')).toEqual(['https://api.openai.com/v1/chat/completions', '-X', 'PUT', '--data-raw', '"x"', '--no-buffer'])
    expect(args('GET', '"x"')).toEqual(['https://api.openai.com/v1/chat/completions', '-X', 'GET', '--data-raw', '"x"', '--no-buffer'])
  })

  it('drops pseudo-headers, Content-Length and Accept-Encoding; sends empty headers with ";"', () => {
    const cmd = toCurl(request({
      requestHeaders: [
        { name: ':authority', value: 'api.openai.com' }, { name: ':path', value: '/v1' }, { name: 'content-length', value: '12' },
        { name: 'Accept-Encoding', value: 'gzip, br' }, { name: 'accept', value: 'text/event-stream' }, { name: 'X-Empty', value: '' },
      ],
    }))
    expect(argv('bash', cmd).filter((_, i, a) => a[i - 1] === '-H')).toEqual(['accept: text/event-stream', 'X-Empty;'])
  })

  it('leaves --no-buffer out when the response is known not to be a stream', () => {
    expect(toCurl(request({ contentType: 'application/json', requestBody: '{"stream":false}' }))).not.toContain('--no-buffer')
    expect(toCurl(request({ contentType: 'text/plain' }))).toContain('--no-buffer') // a sniffed stream
    expect(toCurl(request({ contentType: null }))).toContain('--no-buffer')
    expect(toCurl(request({ contentType: 'application/json' }), { stream: true })).toContain('--no-buffer')
    expect(toCurl(request(), { stream: false })).not.toContain('--no-buffer')
  })

  for (const shell of ['bash', 'dash']) {
    it(`quotes nasty header values, URL and body correctly for ${shell}`, () => {
      const cmd = toCurl(request({
        method: 'PATCH',
        url: "https://x.test/p?q=it's&x=$y`z`",
        requestHeaders: [{ name: 'X-Nasty', value: NASTY.replace(/[\r\n]/g, ' ') }],
        requestBody: NASTY,
      }), { includeCredentials: true })
      expect(argv(shell, cmd)).toEqual([
        "https://x.test/p?q=it's&x=$y`z`", '-X', 'PATCH', '-H', `X-Nasty: ${NASTY.replace(/[\r\n]/g, ' ')}`, '--data-raw', NASTY, '--no-buffer',
      ])
    })
  }

  it('real curl sends exactly that request', async () => {
    const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = []
    const server = createServer((req, res) => {
      const parts: Buffer[] = []
      req.on('data', (d: Buffer) => parts.push(d))
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(parts).toString('utf8') })
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.end('data: [DONE]\n\n')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as AddressInfo).port
      const cmd = toCurl(request({
        method: 'POST',
        url: `http://127.0.0.1:${port}/v1/chat/completions?key=K&alt=sse`,
        requestHeaders: [{ name: 'Content-Type', value: 'application/json' }, { name: 'X-Quote', value: `a'b"c $d` }, { name: 'Accept-Encoding', value: 'gzip' }],
        requestBody: `{"api_key":"K","text":${JSON.stringify(NASTY)},"stream":true}`,
      }))
      const out = await new Promise<string>((resolve, reject) => {
        execFile('bash', ['-c', cmd + ' --silent --show-error'], { encoding: 'utf8' }, (err, stdout) => (err ? reject(err) : resolve(stdout)))
      })
      expect(out).toBe('data: [DONE]\n\n')
      expect(seen).toHaveLength(1)
      const got = seen[0]!
      expect(got.method).toBe('POST')
      expect(got.url).toBe('/v1/chat/completions?key=[REDACTED]&alt=sse')
      expect(got.headers['content-type']).toBe('application/json')
      expect(got.headers['x-quote']).toBe(`a'b"c $d`)
      expect(got.headers['accept-encoding']).toBeUndefined()
      expect(got.body).toBe(`{"api_key":"[REDACTED]","text":${JSON.stringify(NASTY)},"stream":true}`)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
