import { describe, expect, it } from 'vitest'
import { sniffDocument } from '../../src/cli/source.js'

describe('sniffDocument: a fixture or a HAR from the start of a file, else a stream', () => {
  it.each<[string, string, 'fixture' | 'har' | null]>([
    ['a fixture as Deltascope writes it', '{\n  "format": "deltascope-fixture",\n  "version": 1,\n  "request": {', 'fixture'],
    ['a fixture with its format later', '{"version":1,"request":{"url":"x","format":"no"},"format" : "deltascope-fixture"', 'fixture'],
    ['a HAR (Chrome, Firefox, Deltascope)', '\ufeff\n  {\n  "log": {\n    "version": "1.2",', 'har'],
    ['a one-line HAR, whole', '{"log":{"entries":[]}}\n', 'har'],
    ['a HAR cut before its end', '{"log":{"version":"1.2","entries":[{"request":{"url":"https://x', 'har'],
    ['SSE', 'data: {"log":{}}\n\n', null],
    ['a JSON-array stream', '[{"log":{}}', null],
    ['NDJSON whose first line has a "log" object', '{"log":{"a":1}}\n{"log":{"b":2}}\n', null],
    ['NDJSON with a nested "format"', '{"message":{"format":"deltascope-fixture"}}\n{"done":true}\n', null],
    ['"log" that is not an object', '{"log":"hello","x":1}\n', null],
    ['"format" with another value', '{"format":"other"}', null],
    ['a key in a string value', '{"text":"{\\"log\\":{}}","more":1}', null],
    ['an object with neither key, cut', '{"model":"x","created_at":"2024', null],
    ['empty', '', null],
    ['text', 'hello', null],
  ])('%s', (_name, head, kind) => {
    expect(sniffDocument(head)).toBe(kind)
  })
})
