// The one walker of the wire fixtures. A fixture is two files in test/fixtures/<provider>/:
//
//   <name>.<sse|ndjson|jsonl|json|txt|bin>   the wire bytes, as the server sent them
//   <name>.expected.json                     {description, options?, diagnostics, reply}
//
// - description: what the scenario is and where its bytes come from;
// - options: the merge options it needs (contentType, url, provider, transport, rules);
// - diagnostics: what diagnose() says about it, in order, each {code, level, frame, why?}
//   (`why`, optional, says in words why that diagnostic is right; [] for a clean stream);
// - reply: the exact Reply merge() returns.
//
// Every suite that reads the fixture folder finds the fixtures through loadFixtures().

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { diagnose } from '../../src/debug/diagnose.js'
import type { Recording } from '../../src/exchange/types.js'
import { merge, type Diagnostic, type LibraryMergeOptions as MergeOptions, type Reply } from '../../src/index.js'
import { recording } from './requests.js'

/** One diagnostic a fixture expects: the code, level and frame diagnose() gives, and why. */
export interface ExpectedDiagnostic {
  code: Diagnostic['code']
  level: Diagnostic['level']
  frame: number | null
  why?: string
}

export interface FixtureCase {
  /** `<provider folder>/<wire file>`, e.g. "anthropic/usage-merged.sse". */
  name: string
  wire: Uint8Array
  options: MergeOptions
  reply: Reply
  description: string
  diagnostics: ExpectedDiagnostic[]
}

export interface LoadOptions {
  /**
   * Skip a wire file whose .expected.json is missing or not (yet) JSON instead of throwing:
   * for suites that need only the wire bytes and options, or that must not break while
   * another engineer is adding a fixture. Default false: an incomplete fixture throws.
   */
  tolerant?: boolean
}

/** The content of a `<name>.expected.json`. */
export interface ExpectedFile {
  description?: string
  options?: MergeOptions
  diagnostics?: ExpectedDiagnostic[]
  reply: Reply
}

export const FIXTURES_DIR = new URL('../fixtures/', import.meta.url).pathname
const WIRE = /\.(sse|ndjson|jsonl|json|txt|bin)$/

export function loadFixtures(options: LoadOptions = {}): FixtureCase[] {
  const out: FixtureCase[] = []
  for (const dir of readdirSync(FIXTURES_DIR).sort()) {
    const path = join(FIXTURES_DIR, dir)
    if (!statSync(path).isDirectory()) continue
    for (const file of readdirSync(path).sort()) {
      if (!WIRE.test(file) || file.endsWith('.expected.json')) continue
      const name = `${dir}/${file}`
      const expectedPath = join(path, `${file.replace(WIRE, '')}.expected.json`)
      let expected: ExpectedFile
      if (options.tolerant) {
        if (!existsSync(expectedPath)) continue
        try {
          expected = JSON.parse(readFileSync(expectedPath, 'utf8'))
        } catch {
          continue // being written right now
        }
      } else {
        expected = JSON.parse(readFileSync(expectedPath, 'utf8'))
        if (!Array.isArray(expected.diagnostics)) {
          throw new Error(`${name}: its .expected.json has no "diagnostics" list (write [] for a clean stream)`)
        }
      }
      out.push({
        name,
        wire: new Uint8Array(readFileSync(join(path, file))),
        options: expected.options ?? {},
        reply: expected.reply,
        description: expected.description ?? '',
        diagnostics: expected.diagnostics ?? [],
      })
    }
  }
  return out
}

/**
 * A fixture's wire as a recording diagnose() reads: these reads (`t` in ms since the request
 * started, null: unknown), the fixture's URL and Content-Type, and what its options force.
 */
export function fixtureRecording(options: MergeOptions, reads: Array<[Uint8Array, number | null]>): Recording {
  const r = recording(reads, { url: options.url ?? '', contentType: options.contentType ?? null })
  if (options.provider) r.forced = { provider: options.provider }
  if (options.transport) r.forced = { ...r.forced, transport: options.transport }
  if (options.rules) r.forced = { ...r.forced, rules: options.rules }
  return r
}

/**
 * The text of the expected file for this wire, from what the code does today: merge()'s Reply
 * and diagnose()'s findings on the whole body, keeping the description and the `why` of each
 * diagnostic the previous file had (test/support/write-expected.ts writes it).
 */
export function expectedFileText(wire: Uint8Array, options: MergeOptions, previous: Partial<ExpectedFile> = {}): string {
  const whys = new Map((previous.diagnostics ?? []).map((d) => [`${d.code} ${d.level} ${d.frame}`, d.why]))
  const diagnostics = diagnose(fixtureRecording(options, [[wire, null]])).map(({ code, level, frame }): ExpectedDiagnostic => {
    const why = whys.get(`${code} ${level} ${frame}`)
    return why === undefined ? { code, level, frame } : { code, level, frame, why }
  })
  const expected = {
    description: previous.description ?? '',
    ...(Object.keys(options).length ? { options } : {}),
    diagnostics,
    reply: merge(wire, options),
  }
  return JSON.stringify(expected, null, 2) + '\n'
}
