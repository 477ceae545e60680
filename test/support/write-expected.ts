// Writes a wire fixture's <name>.expected.json from what the code says today:
//
//   npx tsx test/support/write-expected.ts test/fixtures/<id>/<name>.sse [--content-type T]
//     [--url U] [--provider P] [--transport T] [--description "what the scenario is"]
//
// The reply is merge()'s and the diagnostics are diagnose()'s on the whole body, exactly what
// test/fixtures.test.ts and test/debug/diagnose.test.ts will check. An existing expected file
// keeps its description, its options (unless given again) and the `why` of each diagnostic it
// still has. It writes what the code does, right or wrong: read the result against the wire
// before committing it, as a fixture is a specification, not a snapshot.

import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { diagnose } from '../../src/debug/diagnose.js'
import { isKnownProviderId, merge, type LibraryMergeOptions as MergeOptions, type Transport } from '../../src/index.js'
import { fixtureRecording, type ExpectedDiagnostic } from './fixtures.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'content-type': { type: 'string' }, url: { type: 'string' }, provider: { type: 'string' },
    transport: { type: 'string' }, description: { type: 'string' },
  },
})
const wirePath = positionals[0]
const WIRE = /\.(sse|ndjson|jsonl|json|txt|bin)$/
if (positionals.length !== 1 || !wirePath || !WIRE.test(wirePath) || wirePath.endsWith('.expected.json')) {
  console.error('usage: npx tsx test/support/write-expected.ts test/fixtures/<id>/<name>.<sse|ndjson|jsonl|json|txt|bin> [--content-type T] [--url U] [--provider P] [--transport T] [--description D]')
  process.exit(2)
}
if (values.provider !== undefined && !isKnownProviderId(values.provider)) {
  console.error(`--provider: "${values.provider}" is not in PROVIDER_IDS`)
  process.exit(2)
}

const expectedPath = wirePath.replace(WIRE, '.expected.json')
const old = existsSync(expectedPath)
  ? (JSON.parse(readFileSync(expectedPath, 'utf8')) as { description?: string; options?: MergeOptions; diagnostics?: ExpectedDiagnostic[] })
  : {}
const options: MergeOptions = { ...old.options }
if (values['content-type'] !== undefined) options.contentType = values['content-type']
if (values.url !== undefined) options.url = values.url
if (values.provider !== undefined && isKnownProviderId(values.provider)) options.provider = values.provider
if (values.transport !== undefined) options.transport = values.transport as Transport

const wire = new Uint8Array(readFileSync(wirePath))
const whys = new Map((old.diagnostics ?? []).map((d) => [`${d.code} ${d.level} ${d.frame}`, d.why]))
const diagnostics = diagnose(fixtureRecording(options, [[wire, null]])).map(({ code, level, frame }): ExpectedDiagnostic => {
  const why = whys.get(`${code} ${level} ${frame}`)
  return why === undefined ? { code, level, frame } : { code, level, frame, why }
})
const description = values.description ?? old.description ?? ''
const expected = { description, ...(Object.keys(options).length ? { options } : {}), diagnostics, reply: merge(wire, options) }
writeFileSync(expectedPath, JSON.stringify(expected, null, 2) + '\n')
console.log(`${expectedPath}: provider ${expected.reply.provider}, ${diagnostics.length} diagnostic(s)${description ? '' : '; no description yet: give --description'}`)
