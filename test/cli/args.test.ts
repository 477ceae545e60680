import { describe, expect, it } from 'vitest'
import { HELP, parseCliArgs } from '../../src/cli/args.js'
import { DEFAULT_STALL_MS } from '../../src/debug/diagnose.js'

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
    expect(message([])).toBe('missing command (merge, frames, check, diagnose or timing)')
    expect(message(['show', 'x'])).toBe('unknown command "show" (merge, frames, check, diagnose or timing)')
    expect(message(['merge'])).toBe('merge: missing FILE (a path, or - for stdin)')
    expect(message(['frames', 'a', 'b'])).toBe('frames: one FILE only, got also "b"')
    expect(message(['merge', '--bogus', 'x'])).toBe('unknown option --bogus')
    expect(message(['merge', '-x', 'x'])).toBe('unknown option -x')
    expect(message(['merge', 'x', '--provider'])).toBe('option --provider needs a value')
    expect(message(['merge', 'x', '-p'])).toBe('option --provider needs a value')
    expect(message(['merge', 'x', '--json=yes'])).toBe('option --json takes no value')
    expect(message(['merge', 'x', '--provider', 'claude'])).toBe(
      '--provider must be one of ai-sdk-v4, bedrock, lobechat, langgraph, librechat, deepseek, chatgpt-web, chatglm, doubao, kimi, yuanbao, anthropic, openai-responses, gemini, ollama, ai-sdk, cohere, ag-ui, qwen, openai-chat, generic (got "claude")')
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
    for (const command of ['merge FILE', 'frames FILE', 'check FILE --against RESULT', 'diagnose FILE', 'timing FILE']) expect(HELP).toContain(`  ${command}`)
  })
})
