import { describe, expect, it } from 'vitest'
import { sniffDocument, type Verdict } from '../../src/cli/source.js'

describe('sniffDocument: a fixture or a HAR from the start of a file, else a stream', () => {
  it.each<[string, string, Verdict, Verdict]>([
    // name, head, verdict while more may come, verdict when head is the whole file
    ['a fixture as Deltascope writes it', '{\n  "format": "deltascope-fixture",\n  "version": 1,\n  "request": {', 'fixture', 'fixture'],
    ['a fixture with its format later', '{"version":1,"request":{"url":"x","format":"no"},"format" : "deltascope-fixture"', 'fixture', 'fixture'],
    ['a HAR (Chrome, Firefox, Deltascope)', '\ufeff\n  {\n  "log": {\n    "version": "1.2",', 'har', 'har'],
    ['a one-line HAR', '{"log":{"entries":[]}}\n', 'har', 'har'],
    ['NDJSON whose first line has a "log" object', '{"log":{"a":1}}\n{"log":{"b":2}}\n', 'har', 'stream'],
    ['SSE', 'data: {"log":{}}\n\n', 'stream', 'stream'],
    ['a JSON-array stream', '[{"log":{}}', 'stream', 'stream'],
    ['NDJSON: the first object closes without those keys', '{"message":{"format":"deltascope-fixture"}}\n', 'stream', 'stream'],
    ['"log" that is not an object', '{"log":"hello","x":1}\n', 'stream', 'stream'],
    ['"format" with another value', '{"format":"other"}', 'stream', 'stream'],
    ['a key in a string value', '{"text":"{\\"log\\":{}}","more":1}', 'stream', 'stream'],
    ['an object with neither key yet', '{"model":"x","created_at":"2024', 'more', 'stream'],
    ['a key whose value has not come', '{ "log"', 'more', 'stream'],
    ['the fixture format half there', '{"format":"deltascope-fi', 'more', 'stream'],
    ['only white space', '\n\n ', 'more', 'stream'],
    ['empty', '', 'more', 'stream'],
    ['text', 'hello', 'stream', 'stream'],
  ])('%s', (_name, head, live, whole) => {
    expect(sniffDocument(head, false)).toBe(live)
    expect(sniffDocument(head, true)).toBe(whole)
  })
})
