// The export actions of the panel: each turns the selected request into a file (or a
// command) with src/exchange, and hands it to the shell. Credentials are redacted unless the
// user ticked "include credentials".

import { exportFileName } from '../src/exchange/filename.js'
import { fixtureToJson, toFixture } from '../src/exchange/fixture.js'
import { toCurl } from '../src/exchange/curl.js'
import { toHar } from '../src/exchange/har.js'
import { toJsonLines, toRawBody } from '../src/exchange/raw.js'
import { toTestFile } from '../src/exchange/testfile.js'
import { plural } from './format.js'
import type { PanelShell } from './shell.js'
import type { ExportSource } from './store.js'

export type ExportAction = 'fixture' | 'test' | 'har' | 'raw' | 'jsonl' | 'curl'

export const EXPORT_ACTIONS: ReadonlyArray<{ id: ExportAction; label: string; title: string }> = [
  { id: 'fixture', label: 'Fixture', title: 'Deltascope fixture: request, body, chunks with their times, and the expected reply (.deltascope.json)' },
  { id: 'test', label: 'Test', title: 'A ready vitest file that replays the chunks and asserts the reply (.test.ts)' },
  { id: 'har', label: 'HAR', title: 'HAR 1.2 with the body in content.text (.har)' },
  { id: 'raw', label: 'Raw body', title: 'The body exactly as received (.sse / .ndjson / .txt)' },
  { id: 'jsonl', label: 'JSON Lines', title: 'One line per frame: its data payload (.jsonl)' },
  { id: 'curl', label: 'Copy as cURL', title: 'A curl command that repeats the request (copied)' },
]

/** Runs one export; returns what to tell the user. */
export async function runExport(action: ExportAction, source: ExportSource, shell: PanelShell, includeCredentials: boolean): Promise<string> {
  const options = { includeCredentials }
  const { request } = source
  const redacted = includeCredentials ? ' (with credentials)' : ''
  switch (action) {
    case 'fixture': {
      const name = exportFileName(request, 'fixture')
      shell.save(name, 'application/json', fixtureToJson(toFixture(source, options)))
      return `Saved ${name}${redacted}`
    }
    case 'test': {
      const name = exportFileName(request, 'test')
      shell.save(name, 'text/typescript', toTestFile(toFixture(source, options)))
      return `Saved ${name}${redacted}`
    }
    case 'har': {
      const name = exportFileName(request, 'har')
      shell.save(name, 'application/json', JSON.stringify(toHar([source], options), null, 2))
      return `Saved ${name}${redacted}`
    }
    case 'raw': {
      const raw = toRawBody(source.chunks.map((c) => c.data), { contentType: request.contentType, transport: source.transport })
      const name = exportFileName(request, raw.extension)
      if (raw.bytes && shell.saveBytes) shell.saveBytes(name, raw.mime, raw.bytes)
      else shell.save(name, raw.mime, raw.text)
      return `Saved ${name}`
    }
    case 'jsonl': {
      const lines = toJsonLines(source.frames())
      const name = exportFileName(request, 'jsonl')
      shell.save(name, 'application/jsonl', lines.text)
      return `Saved ${name} (${plural(lines.lines, 'line')}${lines.skipped.length > 0 ? `, ${plural(lines.skipped.length, 'frame')} left out` : ''})`
    }
    case 'curl':
      await shell.copy(toCurl(request, options))
      return `Copied the cURL command${redacted}`
  }
}
