// The export actions of the panel: each turns the selected request into a file (or a
// command) with src/exchange, and hands it to the shell. Credentials are redacted unless the
// user ticked "include credentials", by the defaults and the user's list (store/redaction.ts),
// in every export: the files say what they removed (fixture meta.redactions, the HAR entry's
// comment), and the message after each export says it too (the raw body and cURL have no room).

import { exportFileName } from '../src/exchange/filename.js'
import { fixtureToJson, toFixture } from '../src/exchange/fixture.js'
import { toCurl } from '../src/exchange/curl.js'
import { toHar } from '../src/exchange/har.js'
import { toJsonLines, toRawBody } from '../src/exchange/raw.js'
import { NO_RULES, redactRecording, userRules, type RedactionRules, type Redaction } from '../src/exchange/redact.js'
import { toTestFile } from '../src/exchange/testfile.js'
import { plural } from './format.js'
import type { Recording } from '../src/exchange/types.js'
import type { PanelShell } from './shell.js'
import type { ExportSource } from './store/index.js'

export type ExportAction = 'fixture' | 'test' | 'har' | 'raw' | 'jsonl' | 'curl'

export const EXPORT_ACTIONS: ReadonlyArray<{ id: ExportAction; label: string; title: string }> = [
  { id: 'fixture', label: 'Fixture', title: 'Deltascope fixture: request, body, chunks with their times, and the expected reply (.deltascope.json)' },
  { id: 'test', label: 'Test', title: 'A ready vitest file that replays the chunks and asserts the reply (.test.ts)' },
  { id: 'har', label: 'HAR', title: 'HAR 1.2 with the body in content.text (.har)' },
  { id: 'raw', label: 'Raw body', title: 'The body exactly as received (.sse / .ndjson / .txt)' },
  { id: 'jsonl', label: 'JSON Lines', title: 'One line per frame: its data payload (.jsonl)' },
  { id: 'curl', label: 'Copy as cURL', title: 'A curl command that repeats the request (copied)' },
]

/** Runs one export; returns what to tell the user. `rules`: the user's redaction list, beside the defaults. */
export async function runExport(
  action: ExportAction, source: ExportSource, shell: PanelShell, includeCredentials: boolean, rules: RedactionRules = NO_RULES,
): Promise<string> {
  const options = { includeCredentials, redactNames: rules.names, redactValues: rules.values, redactPatterns: rules.patterns }
  const listed = userRules(options)
  const { request } = source
  // what an export removed, for the message: the fixture lists it; the others redact here (a
  // body is redacted once per export: it may be hundreds of MB)
  const redact = (recording: Recording) => redactRecording(recording, { includeCredentials, ...listed })
  /** What to say of the redaction, of the parts this export holds. */
  const told = (list: readonly Redaction[], holds: (r: Redaction) => boolean = () => true) =>
    (includeCredentials ? ' (with credentials)' : removed(list.filter(holds)))
  switch (action) {
    case 'fixture':
    case 'test': {
      const name = exportFileName(request, action, listed)
      const fixture = toFixture(source, options)
      if (action === 'fixture') shell.save(name, 'application/json', fixtureToJson(fixture))
      else shell.save(name, 'text/typescript', toTestFile(fixture))
      return `Saved ${name}${told(fixture.meta.redactions ?? [])}`
    }
    case 'har': {
      const name = exportFileName(request, 'har', listed)
      shell.save(name, 'application/json', JSON.stringify(toHar([source], options), null, 2))
      return `Saved ${name}${told(redact(source).redactions)}`
    }
    case 'raw': {
      const redaction = redact(source)
      // the body with every secret found in it by value (an echoed key, the user's values and patterns) replaced
      const raw = toRawBody(redaction.chunks.map((c) => c.data), { contentType: request.contentType, transport: source.transport })
      const name = exportFileName(request, raw.extension, listed)
      if (raw.bytes && shell.saveBytes) shell.saveBytes(name, raw.mime, raw.bytes)
      else shell.save(name, raw.mime, raw.text)
      return `Saved ${name}${told(redaction.redactions, inBody)}`
    }
    case 'jsonl': {
      const redaction = redact(source)
      const lines = toJsonLines(await source.frames())
      const name = exportFileName(request, 'jsonl', listed)
      shell.save(name, 'application/jsonl', redaction.scrub(lines.text))
      return `Saved ${name} (${plural(lines.lines, 'line')}${lines.skipped.length > 0 ? `, ${plural(lines.skipped.length, 'frame')} left out` : ''})${told(redaction.redactions, inBody)}`
    }
    case 'curl':
      await shell.copy(toCurl(request, options))
      return `Copied the cURL command${told(redact({ request, chunks: [] }).redactions, inRequest)}`
  }
}

/** The raw body and JSON Lines hold the response body only; cURL the request only. */
const inBody = (r: Redaction) => r.where === 'response body'
const inRequest = (r: Redaction) => r.where === 'url' || r.where === 'request header' || r.where === 'request body'

/** " (redacted: request header Authorization; url key)", the first three and how many more; '' when nothing. */
function removed(list: readonly Redaction[]): string {
  if (list.length === 0) return ''
  const shown = list.slice(0, 3).map((r) => `${r.where} ${r.name}`).join('; ')
  return ` (redacted: ${shown}${list.length > 3 ? `; and ${list.length - 3} more` : ''})`
}
