import { describe, expect, it } from 'vitest'
import { parseCliArgs } from '../../src/cli/args.js'

describe('parseCliArgs', () => {
  it('commands, FILE, - and every option', () => {
    expect(parseCliArgs(['merge', 'a.sse'])).toEqual({ ok: true, command: { kind: 'merge', file: 'a.sse', json: false, options: {} } })
    expect(parseCliArgs(['frames', '-', '--json'])).toEqual({ ok: true, command: { kind: 'frames', file: '-', json: true, options: {} } })
    expect(parseCliArgs([
      'merge', '--provider', 'anthropic', '-t', 'sse', '--content-type', 'text/event-stream', '--url', 'https://x/v1/messages', 'f',
    ])).toEqual({
      ok: true,
      command: {
        kind: 'merge', file: 'f', json: false,
        options: { provider: 'anthropic', transport: 'sse', contentType: 'text/event-stream', url: 'https://x/v1/messages' },
      },
    })
    expect(parseCliArgs(['merge', '-p', 'ollama', '--', '-odd-name'])).toEqual({
      ok: true, command: { kind: 'merge', file: '-odd-name', json: false, options: { provider: 'ollama' } },
    })
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
    expect(message([])).toBe('missing command (merge or frames)')
    expect(message(['show', 'x'])).toBe('unknown command "show" (merge or frames)')
    expect(message(['merge'])).toBe('merge: missing FILE (a path, or - for stdin)')
    expect(message(['frames', 'a', 'b'])).toBe('frames: one FILE only, got also "b"')
    expect(message(['merge', '--bogus', 'x'])).toBe('unknown option --bogus')
    expect(message(['merge', '-x', 'x'])).toBe('unknown option -x')
    expect(message(['merge', 'x', '--provider'])).toBe('option --provider needs a value')
    expect(message(['merge', 'x', '-p'])).toBe('option --provider needs a value')
    expect(message(['merge', 'x', '--json=yes'])).toBe('option --json takes no value')
    expect(message(['merge', 'x', '--provider', 'claude'])).toBe(
      '--provider must be one of anthropic, openai-responses, gemini, ollama, ai-sdk, openai-chat, generic (got "claude")')
    expect(message(['merge', 'x', '--transport', 'unknown'])).toBe('--transport must be one of sse, ndjson, json (got "unknown")')
  })
})
