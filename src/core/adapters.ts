// The contract between the core and the wire formats (src/providers): what an adapter sees
// (one parsed frame), what it emits (neutral deltas, which the accumulator applies without
// knowing the provider), and the registry the adapters are handed to the core in. Types only.

import type { Channel, DiagnosticCode, ProviderId } from './types.js'

// ---------------------------------------------------------------------------
// Neutral deltas: what a provider adapter emits for one parsed frame.
// The accumulator applies them without knowing the provider.

export type { Channel }

export type Delta =
  | ChoiceDelta
  | TextDelta
  | TextTruncateDelta
  | ToolCallDelta
  | FinishDelta
  | UsageDelta
  | StreamErrorDelta
  | DoneDelta
  | FinalTextDelta
  | FinalToolCallDelta
  | NoteDelta
  | MessageDelta
  | ToolResultDelta
  | MessagePartDelta

/** The choice exists (and may carry a role). */
export interface ChoiceDelta {
  type: 'choice'
  choice: number
  role?: string | null
}

/** Appends text to one channel of one choice. */
export interface TextDelta {
  type: 'text'
  choice: number
  channel: Channel
  text: string
  /**
   * The message it belongs to (docs/architecture.md#messages): its text is then kept in that
   * message, whatever streams between, and the choice's channel is the messages' text joined.
   */
  messageId?: string
  /** The part it continues, within the message (AI SDK part ids); absent: the message's last part of that channel, when it is the last part. */
  partId?: string
}

/**
 * Keeps the first `length` characters of one channel of one choice (a no-op when the channel
 * is not longer): a snapshot that rewrote (src/providers/snapshot.ts), a patch's truncate.
 * Provenance runs past the cut are removed or shortened.
 */
export interface TextTruncateDelta {
  type: 'text-truncate'
  choice: number
  channel: Channel
  length: number
  /**
   * The message whose text it cuts: `length` then counts that message's text of the channel
   * (its text parts joined), not the choice's (ChatGPT web rewriting one message of a turn).
   */
  messageId?: string
}

export interface ToolCallDelta {
  type: 'tool-call'
  choice: number
  /** The wire index; null when the wire has none (Gemini parts, Ollama, some compatible servers). */
  key: number | null
  id?: string | null
  name?: string | null
  callType?: string | null
  /** An arguments fragment, appended as text. */
  arguments?: string | null
  /** The call arrived whole (Gemini functionCall, Ollama tool_calls[]): always a new call. */
  whole?: boolean
  /** Arguments to use when no fragment ever arrives (Anthropic's content_block_start `input`). */
  argumentsIfEmpty?: string
  /** The message whose part the call is (placed there when it first appears). */
  messageId?: string
  /**
   * The call's arguments are free text, not JSON (a Responses custom tool's input, ChatGPT
   * web's message to a tool): text that does not parse is no arguments-invalid then.
   */
  freeText?: boolean
}

export interface FinishDelta {
  type: 'finish'
  choice: number
  reason: string | null
}

export interface UsageDelta {
  type: 'usage'
  usage: Record<string, unknown>
}

/** A provider error payload inside the stream (not a parse failure). */
export interface StreamErrorDelta {
  type: 'stream-error'
  message: string
  code?: string | number | null
  errorType?: string | null
  payload: unknown
  /** The message it ends with an error part, when the wire says which. */
  messageId?: string
}

/**
 * A message of the run exists (a start event, the first chunk of an id): messages are listed
 * in the order they are first named, by this or by any delta's messageId.
 */
export interface MessageDelta {
  type: 'message'
  choice: number
  messageId: string
  role?: string | null
  name?: string | null
  /**
   * A new message goes right after this message and the tool messages that already follow
   * it, not at the end (AG-UI: a tool result is filed after the message holding its call).
   */
  after?: string
}

/** A tool's result: a part of the message it is given in (AI SDK: the call's; LangGraph, AG-UI: a tool message). */
export interface ToolResultDelta {
  type: 'tool-result'
  choice: number
  messageId: string
  toolCallId: string | null
  output: unknown
  isError: boolean
}

/** A source, file or data part, kept as the wire gave it. */
export interface MessagePartDelta {
  type: 'message-part'
  choice: number
  messageId: string
  part: 'source' | 'file' | 'data'
  data: unknown
}

export interface DoneDelta {
  type: 'done'
}

/**
 * An authoritative final text (Responses *.done / response.completed): compared, never
 * overwriting. Without `span`, `text` is the whole channel's final text (an empty channel
 * takes it). With `span`, `text` is the final value of one part of the channel, which the
 * deltas built as `span.have` from character `span.start` on: the adapter compares parts, so
 * a `.done` after every delta costs the part, not the channel.
 */
export interface FinalTextDelta {
  type: 'final-text'
  choice: number
  channel: Channel
  text: string
  source: string
  span?: { start: number; have: string }
}

/** An authoritative final tool call (Responses function_call_arguments.done, output_item.done). */
export interface FinalToolCallDelta {
  type: 'final-tool-call'
  choice: number
  /** The wire key; null when it was unusable: the call is then found by its `id`. */
  key: number | null
  id?: string | null
  name?: string | null
  arguments?: string | null
  source: string
}

/** Something worth showing that does not change the reply (ignored events, metadata). */
export interface NoteDelta {
  type: 'note'
  level: 'info' | 'warning'
  message: string
  /** What a client that reads it wrongly shows; SYMPTOMS[code] when absent. */
  symptom?: string
  /** The diagnostic's code when the adapter's finding has one of its own (snapshot-rewrote); 'note' when absent. */
  code?: DiagnosticCode
}

// ---------------------------------------------------------------------------
// What an adapter sees: one parsed frame.

export interface ParsedFrame {
  seq: number
  event: string | null
  json: unknown
}

/** One module per wire format, handed to the core in a registry. */
export interface ProviderAdapter {
  id: ProviderId
  /** True when this parsed frame is unmistakably this provider's. */
  recognizes(frame: ParsedFrame): boolean
  /** A fresh mapper for one stream; it may keep state between frames. */
  createMapper(): FrameMapper
  /** Request URLs that name this provider: a hint used only while no frame has told. */
  urlPattern?: RegExp
  /** Response Content-Types only this provider sends natively: a weaker hint than the URL. */
  contentTypePattern?: RegExp
  /** Request URLs whose JSON-array body is a stream (most JSON arrays are one document). */
  jsonArrayStreamUrl?: RegExp
  /** A frame that carries nothing (a ping, a keep-alive): listed dimmed, hideable. */
  isKeepalive?(frame: Pick<ParsedFrame, 'event' | 'json'>): boolean
  /**
   * Over a WebSocket one connection carries many replies: which turn a received frame belongs
   * to (src/core/connection.ts). null: the connection's own (a session event), in no turn. An
   * adapter without it puts every frame in one turn.
   */
  turn?(frame: ParsedFrame): TurnMark | null
}

/**
 * Where a frame of a connection goes. `key` names the turn (a response id, a message id);
 * null is the latest turn. `open`: 'new' starts a turn even when one of that key is open (the
 * turn's first event); 'if-none' (the default) starts one only when no open turn matches;
 * 'never' joins the matching turn, open or ended (usage sent after the turn's end, an error),
 * and is the connection's own when there is none. `end`: the turn is complete after this frame.
 */
export interface TurnMark {
  key: string | null
  open?: 'new' | 'if-none' | 'never'
  end?: boolean
}

/** How a stream's provider was chosen. */
export type ProviderReason = 'forced' | 'frames' | 'url' | 'content-type' | 'default'

export interface ProviderChoice {
  id: ProviderId
  reason: ProviderReason
}

/**
 * The wire formats the core may choose from, handed to it (the core imports no provider).
 * Built by createProviderRegistry() from adapters, most specific first.
 */
export interface ProviderRegistry {
  /** Every adapter's id, the fallback's included, in recognition order. */
  readonly ids: readonly ProviderId[]
  /** The adapter of that id; the fallback for an id it does not know. */
  adapter(id: ProviderId): ProviderAdapter
  /** The first adapter that recognises this frame, or null. */
  recognize(frame: ParsedFrame): ProviderAdapter | null
  /** A provider named by the request's URL, else by the response's Content-Type; null when neither tells. */
  hint(request: { url?: string | null; contentType?: string | null }): ProviderChoice | null
  /** True when a JSON-array body at this URL is a stream. */
  isJsonArrayStream(url: string): boolean
  /** True when a frame carries nothing (a provider's ping or keep-alive). */
  isKeepalive(frame: Pick<ParsedFrame, 'event' | 'json'>): boolean
  /** The adapter for frames no other recognises: lists them, rebuilds nothing. */
  readonly fallback: ProviderAdapter
}

export interface FrameMapper {
  map(frame: ParsedFrame): Delta[]
  /** Called once at the end of the stream, to close what is still open. */
  flush?(): Delta[]
  /**
   * Asked at the end of a stream that had no terminal event: when a server of this protocol
   * may end a whole stream so (the LangGraph JS server never sends `event: end`), what such a
   * stream lacks, said once as info if the body ended at a frame's end (a body cut inside a
   * frame is still a cut); null when the stream may have been cut.
   */
  terminalOptional?(): string | null
}
