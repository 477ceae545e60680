// The mock endpoints replay recorded wire fixtures (test/fixtures/<provider>/<name>.*),
// each of which carries its exact expected Reply: the panel can be checked against it.

import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { ProviderId } from '../src/library.js'

export interface Scenario {
  provider: ProviderId
  /** Fixture name under test/fixtures/<provider>/, without extension. */
  fixture: string
  contentType: string
  /** Wire text. */
  body: string
}

const FIXTURES = fileURLToPath(new URL('../test/fixtures/', import.meta.url))

/** The endpoint each provider is served at, and the fixture it replays by default. */
export const ENDPOINTS: Array<{ provider: ProviderId; path: RegExp; example: string; fixture: string; contentType: string }> = [
  { provider: 'openai-chat', path: /^\/v1\/chat\/completions$/, example: '/v1/chat/completions', fixture: 'demo-reasoning-parallel-tools', contentType: 'text/event-stream; charset=utf-8' },
  { provider: 'openai-responses', path: /^\/v1\/responses$/, example: '/v1/responses', fixture: 'reasoning-summary-text-function-call', contentType: 'text/event-stream; charset=utf-8' },
  { provider: 'anthropic', path: /^\/v1\/messages$/, example: '/v1/messages', fixture: 'thinking-text-tool-use', contentType: 'text/event-stream; charset=utf-8' },
  { provider: 'gemini', path: /^\/v1beta\/models\/[^/:]+:streamGenerateContent$/, example: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', fixture: 'thought-parts', contentType: 'text/event-stream; charset=utf-8' },
  { provider: 'ollama', path: /^\/api\/chat$/, example: '/api/chat', fixture: 'demo-thinking-tool-calls', contentType: 'application/x-ndjson' },
]

const EXTENSIONS = ['.sse', '.ndjson', '.json']

/** A fixture by provider and name; null when there is none (names are checked, never paths). */
export function loadScenario(provider: ProviderId, fixture: string, contentType: string): Scenario | null {
  if (!/^[a-z0-9-]+$/.test(fixture)) return null
  for (const ext of EXTENSIONS) {
    const path = `${FIXTURES}${provider}/${fixture}${ext}`
    if (existsSync(path)) return { provider, fixture, contentType, body: readFileSync(path, 'utf8') }
  }
  return null
}
