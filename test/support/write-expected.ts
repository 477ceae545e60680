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
import { isKnownProviderId, type LibraryMergeOptions as MergeOptions, type Transport } from '../../src/index.js'
import { expectedFileText, type ExpectedFile } from './fixtures.js'

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
const previous: Partial<ExpectedFile> = existsSync(expectedPath) ? JSON.parse(readFileSync(expectedPath, 'utf8')) : {}
const options: MergeOptions = { ...previous.options }
if (values['content-type'] !== undefined) options.contentType = values['content-type']
if (values.url !== undefined) options.url = values.url
if (values.provider !== undefined && isKnownProviderId(values.provider)) options.provider = values.provider
if (values.transport !== undefined) options.transport = values.transport as Transport
if (values.description !== undefined) previous.description = values.description

const text = expectedFileText(new Uint8Array(readFileSync(wirePath)), options, previous)
writeFileSync(expectedPath, text)
const written = JSON.parse(text) as ExpectedFile
console.log(`${expectedPath}: provider ${written.reply.provider}, ${written.diagnostics?.length ?? 0} diagnostic(s)${written.description ? '' : '; no description yet: give --description'}`)
