import { describe, expect, it } from 'vitest'
import { HELP, parseCliArgs } from '../../src/cli/args.js'
import { DEFAULT_STALL_MS } from '../../src/debug/diagnose.js'
import { PROVIDER_IDS } from '../../src/index.js'

describe('parseCliArgs', () => {
  it('commands, FILE, - and every option', () => {
    expect(parseCliArgs(['merge', 'a.sse'])).toEqual({ ok: true, command: { kind: 'merge', file: 'a.sse', json: false, options: {}, entry: null } })
    expect(parseCliArgs(['frames', '-', '--json'])).toEqual({ ok: true, command: { kind: 'frames', file: '-', json: true, options: {}, entry: null } })
    expect(parseCliArgs([
      'merge', '--provider', 'anthropic', '-t', 'sse', '--content-type', 'text/event-stream', '--url', 'https://x/v1/messages', 'f',
    ])).toEqual({
      ok: true,
      command: {
        kind: 'merge', file: 'f', json: false, entry: null,
        options: { provider: 'anthropic', transport: 'sse', contentType: 'text/event-stream', url: 'https://x/v1/messages' },
      },
    })
    expect(parseCliArgs(['merge', '-p', 'ollama', '--', '-odd-name'])).toEqual({
      ok: true, command: { kind: 'merge', file: '-odd-name', json: false, options: { provider: 'ollama' }, entry: null },
    })
    expect(parseCliArgs(['frames', '--entry', '2', 'x.har'])).toEqual({ ok: true, command: { kind: 'frames', file: 'x.har', json: false, options: {}, entry: 2 } })
  })

  it('check, diagnose and timing', () => {
    expect(parseCliArgs(['check', 'x.json', '--against', 'got.json', '--json'])).toEqual({
      ok: true, command: { kind: 'check', file: 'x.json', json: true, options: {}, entry: null, against: 'got.json' },
    })
    expect(parseCliArgs(['check', 'x.sse', '--against', '-'])).toEqual({
      ok: true, command: { kind: 'check', file: 'x.sse', json: false, options: {}, entry: null, against: '-' },
    })
    expect(parseCliArgs(['diagnose', 'x.har', '--entry', '3', '--stall', '250'])).toEqual({
      ok: true, command: { kind: 'diagnose', file: 'x.har', json: false, options: {}, entry: 3, stallMs: 250 },
    })
    expect(parseCliArgs(['timing', '--json', 'x.json'])).toEqual({
      ok: true, command: { kind: 'timing', file: 'x.json', json: true, options: {}, entry: null, stallMs: null },
    })
    expect(parseCliArgs(['timing', '--stall', '1.5', 'x.json'])).toMatchObject({ ok: true, command: { stallMs: 1.5 } })
  })

  it('stress: FILE, --client, --chunkings (comma-separated) and --timeout', () => {
    expect(parseCliArgs(['stress', 'chat.json', '--client', './client.mjs'])).toEqual({
      ok: true, command: { kind: 'stress', file: 'chat.json', json: false, options: {}, entry: null, client: './client.mjs', chunkings: null, timeoutMs: null },
    })
    expect(parseCliArgs(['stress', 'x.har', '--entry', '2', '--client', 'c.mjs', '--chunkings', 'crlf, random:7', '--timeout', '500', '--json'])).toEqual({
      ok: true, command: { kind: 'stress', file: 'x.har', json: true, options: {}, entry: 2, client: 'c.mjs', chunkings: ['crlf', 'random:7'], timeoutMs: 500 },
    })
  })

  it('serve: several FILEs, --port, --host, --chunking and --speed, with their defaults', () => {
    expect(parseCliArgs(['serve', 'a.json', 'b.har'])).toEqual({
      ok: true, command: { kind: 'serve', files: ['a.json', 'b.har'], port: 8788, host: '127.0.0.1', chunking: 'recorded', speed: 1 },
    })
    expect(parseCliArgs(['serve', 'a.json', '--port', '0', '--host', '::1', '--chunking', 'bytes-1', '--speed', '0.5'])).toEqual({
      ok: true, command: { kind: 'serve', files: ['a.json'], port: 0, host: '::1', chunking: 'bytes-1', speed: 0.5 },
    })
  })

  it('stress and serve usage errors name the option', () => {
    const message = (argv: string[]) => {
      const r = parseCliArgs(argv)
      return r.ok ? null : r.message
    }
    expect(message(['stress', 'x'])).toBe('stress: missing --client MODULE (an ES module whose default export is async (fetch) => result)')
    expect(message(['stress', 'x', '--client', 'c.mjs', '--chunkings', 'lf'])).toBe('--chunkings: unknown chunking "lf" (one of recorded, whole, bytes-1, frame-straddle, utf8-split, line-straddle, crlf, cr, comments, no-space, retry-id, random:<seed>)')
    expect(message(['stress', 'x', '--client', 'c.mjs', '--chunkings', ','])).toBe('--chunkings needs at least one name')
    expect(message(['stress', 'x', '--client', 'c.mjs', '--timeout', '0'])).toBe('--timeout must be a number of milliseconds above 0 (got "0")')
    expect(message(['stress', 'x', '--client', 'c.mjs', '--port', '1'])).toBe('--port is for serve only')
    expect(message(['merge', 'x', '--client', 'c.mjs'])).toBe('--client is for stress only')
    expect(message(['merge', 'x', '--speed', '1'])).toBe('--speed is for serve only')
    expect(message(['serve'])).toBe('serve: missing FILE (a fixture or a HAR; several may be given)')
    expect(message(['serve', '-'])).toBe('serve: FILE must be a path (stdin cannot be served again and again)')
    expect(message(['serve', 'a', '--json'])).toBe('serve: --json is not a serve option')
    expect(message(['serve', 'a', '--client', 'c.mjs'])).toBe('serve: --client is not a serve option')
    expect(message(['serve', 'a', '--chunking', 'random:x'])).toBe('--chunking: "random:x": a random chunking is random:<seed>, the seed a whole number from 0 to 4294967295')
    expect(message(['serve', 'a', '--speed=-1'])).toBe('--speed must be a number from 0 (got "-1")')
    expect(message(['serve', 'a', '--port', '70000'])).toBe('--port must be a whole number from 0 to 65535 (got "70000")')
    expect(message(['serve', 'a', '--host', ''])).toBe('--host needs an address (default 127.0.0.1)')
  })

  it('help and version win over the rest', () => {
    expect(parseCliArgs(['--help'])).toEqual({ ok: true, command: { kind: 'help' } })
    expect(parseCliArgs(['merge', '-h'])).toEqual({ ok: true, command: { kind: 'help' } })
    expect(parseCliArgs(['help'])).toEqual({ ok: true, command: { kind: 'help' } })
    expect(parseCliArgs(['-v'])).toEqual({ ok: true, command: { kind: 'version' } })
  })

  it('usage errors are one line', () => {
    const message = (argv: string[]) => {
      const r = parseCliArgs(argv)
      return r.ok ? null : r.message
    }
    expect(message([])).toBe('missing command (merge, frames, check, diagnose, timing, stress, serve or ws-fixture)')
    expect(message(['show', 'x'])).toBe('unknown command "show" (merge, frames, check, diagnose, timing, stress, serve or ws-fixture)')
    expect(message(['merge'])).toBe('merge: missing FILE (a path, or - for stdin)')
    expect(message(['frames', 'a', 'b'])).toBe('frames: one FILE only, got also "b"')
    expect(message(['merge', '--bogus', 'x'])).toBe('unknown option --bogus')
    expect(message(['merge', '-x', 'x'])).toBe('unknown option -x')
    expect(message(['merge', 'x', '--provider'])).toBe('option --provider needs a value')
    expect(message(['merge', 'x', '-p'])).toBe('option --provider needs a value')
    expect(message(['merge', 'x', '--json=yes'])).toBe('option --json takes no value')
    expect(message(['merge', 'x', '--provider', 'claude'])).toBe(
      `--provider must be one of ${PROVIDER_IDS.join(', ')} (got "claude")`)
    expect(message(['merge', 'x', '--transport', 'unknown'])).toBe('--transport must be one of sse, ndjson, json, data-stream, eventstream, connect (got "unknown")')
    for (const n of ['0', '-1', '1.5', 'two', '']) {
      expect(message(['merge', 'x', `--entry=${n}`])).toBe(`--entry must be a whole number from 1 (the first streaming entry of a HAR; got ${JSON.stringify(n)})`)
    }
    expect(message(['check', 'x'])).toBe("check: missing --against RESULT (the client's result: a JSON file or text)")
    expect(message(['check', '-', '--against', '-'])).toBe('check: FILE and RESULT cannot both be stdin')
    expect(message(['merge', 'x', '--against', 'y'])).toBe('--against is for check only')
    expect(message(['merge', 'x', '--stall', '5'])).toBe('--stall is for diagnose and timing only')
    for (const ms of ['0', '-5', 'soon', '', 'Infinity']) {
      expect(message(['diagnose', 'x', `--stall=${ms}`])).toBe(`--stall must be a number of milliseconds above 0 (got ${JSON.stringify(ms)})`)
    }
  })

  it('the help says what --entry counts and the default stall', () => {
    expect(HELP).toContain('--entry <n>             a HAR: its n-th streaming entry, counting from 1 in file order')
    expect(HELP).toContain(`(default ${DEFAULT_STALL_MS})`)
    for (const command of ['merge FILE', 'frames FILE', 'check FILE --against RESULT', 'diagnose FILE', 'timing FILE', 'stress FILE --client MODULE', 'serve FILE…']) expect(HELP).toContain(`  ${command}`)
  })
})
