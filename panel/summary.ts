// One-line descriptions of frames for the frame list. They read the core's parsed frame and
// the provenance records; nothing here parses the wire again.

import { defaultRegistry, type Frame, type Provenance, type Reply } from '../src/library.js'
import { oneLine } from './format.js'

function typeOf(json: unknown): string | null {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null
  const t = (json as Record<string, unknown>)['type']
  if (typeof t === 'string') return t
  const o = (json as Record<string, unknown>)['object']
  return typeof o === 'string' ? o : null
}

/** An SSE event name that marks a ping or keep-alive (the adapters know which). */
export function isKeepaliveEvent(event: string | null): boolean {
  return event !== null && defaultRegistry.isKeepalive({ event, json: undefined })
}

/** Frames that carry nothing: provider pings and keep-alives. Dimmed, hideable. */
export function isKeepalive(frame: Pick<Frame, 'event' | 'json' | 'kind'>): boolean {
  return frame.kind === 'data' && defaultRegistry.isKeepalive({ event: frame.event, json: frame.json })
}

/** The frame's own name: its SSE event, else its JSON `type` / `object`. */
export function frameLabel(frame: Frame): string {
  return frame.event ?? typeOf(frame.json) ?? ''
}

/** The text of a reply field a provenance record points into. */
export function fieldText(reply: Reply, p: Provenance): string | null {
  const choice = reply.choices.find((c) => c.index === p.choice)
  if (!choice) return null
  if (p.channel === 'arguments') return p.toolCall === null ? null : choice.toolCalls[p.toolCall]?.arguments ?? null
  return choice[p.channel]
}

function fieldName(reply: Reply, p: Provenance): string {
  const prefix = reply.choices.length > 1 ? `[${p.choice}] ` : ''
  if (p.channel !== 'arguments') return prefix + p.channel
  const call = p.toolCall === null ? undefined : reply.choices.find((c) => c.index === p.choice)?.toolCalls[p.toolCall]
  return `${prefix}${call?.name ?? 'tool'} args`
}

export function summarizeFrame(frame: Frame, contributed: readonly Provenance[], reply: Reply | null): string {
  if (frame.kind === 'done') return '[DONE]'
  if (frame.kind === 'invalid') return oneLine(frame.error?.message ?? 'invalid JSON', 200)
  if (reply && contributed.length > 0) {
    const parts: string[] = []
    for (const p of contributed) {
      const text = fieldText(reply, p)
      if (text === null) continue
      parts.push(`${fieldName(reply, p)} ${JSON.stringify(oneLine(text.slice(p.start, p.end), 120))}`)
      if (parts.length >= 3) break
    }
    if (parts.length > 0) return oneLine(parts.join(' · '), 200)
  }
  return oneLine(compact(frame.json) ?? frame.data, 200)
}

/** Envelope fields repeated in every frame of a stream: left out of the one-line summary. */
const ENVELOPE = new Set(['id', 'object', 'created', 'created_at', 'model', 'system_fingerprint', 'sequence_number', 'service_tier', 'obfuscation', 'logprobs'])

/** The frame's JSON on one line, without nulls and without the envelope every frame repeats. */
function compact(json: unknown): string | null {
  if (json === undefined) return null
  try {
    return JSON.stringify(json, function (this: unknown, key: string, value: unknown) {
      if (value === null && key !== '') return undefined
      if (this === json && ENVELOPE.has(key)) return undefined
      return value
    }) ?? null
  } catch {
    return null
  }
}
