// The shapes that cross stage boundaries: bytes → frames → deltas → reply.
// Everything here is plain data (structured-clone safe), so the panel can receive it
// over postMessage and a fixture can store it as JSON.

/** How the body is cut into frames (docs/architecture.md#framing). */
export type Transport = 'sse' | 'ndjson' | 'json' | 'data-stream' | 'eventstream' | 'unknown'

/**
 * A wire format's name, as its adapter gives it. The core knows no provider: the registry it
 * is handed lists them (the library's default registry lists every known one).
 */
export type ProviderId = string

// ---------------------------------------------------------------------------
// The Reply contract (docs/architecture.md#the-reply-contract). Small and stable: fixtures store it.

export interface Reply {
  transport: Transport
  provider: ProviderId
  /** A terminal marker was seen ([DONE], message_stop, response.completed, done:true, finish). */
  done: boolean
  /** Frames as defined in docs/architecture.md#frames-and-entries: [DONE] counts; comments and empty blocks do not. */
  frameCount: number
  choices: ReplyChoice[]
  usage: Record<string, unknown> | null
  errors: FrameError[]
}

export interface ReplyChoice {
  index: number
  role: string | null
  content: string
  reasoning: string
  refusal: string
  toolCalls: ReplyToolCall[]
  finishReason: string | null
}

export interface ReplyToolCall {
  /** The wire key (OpenAI tool_calls[].index, Anthropic block index, Responses output_index); order of arrival where the wire has none. */
  index: number
  id: string | null
  type: string | null
  name: string | null
  /** Exactly the concatenated fragments. */
  arguments: string
  parsedArguments: unknown | null
  argumentsError: string | null
}

/** A frame whose data failed to parse. */
export interface FrameError {
  /** The frame's seq. */
  frame: number
  /** Character offset of the frame's first character in the decoded body. */
  offset: number
  /** 1-based line number of the frame's first line. */
  line: number
  raw: string
  message: string
}

// ---------------------------------------------------------------------------
// Frames (docs/architecture.md#frames-and-entries)

export type FrameKind = 'data' | 'done' | 'invalid'

/** A frame's position and kind: cheap, readable even when the body was not retained. */
export type FrameInfo = Omit<Frame, 'raw' | 'data' | 'json' | 'error'>

export interface Frame {
  /** 0-based among frames. */
  seq: number
  kind: FrameKind
  /** The block's text as received, without the blank line that ended it. */
  raw: string
  /** Character offsets into the decoded body (BOM excluded), end exclusive. */
  start: number
  end: number
  /** Byte offsets into the body as received (BOM included), end exclusive. */
  byteStart: number
  byteEnd: number
  /** 1-based number of the frame's first line. */
  line: number
  event: string | null
  id: string | null
  retry: number | null
  data: string
  /** Arrival time of the chunk that completed the frame, when the caller gave times. */
  time: number | null
  /** The body ended before the blank line that should have closed this frame. */
  unterminated: boolean
  /** The parsed data, for kind 'data'. */
  json?: unknown
  /** The parse failure, for kind 'invalid'. */
  error?: JsonSyntaxError
}

/** Blocks the SSE spec throws away, kept for display: not frames, never parsed. */
export interface FrameEntry {
  kind: 'comment' | 'empty'
  raw: string
  start: number
  end: number
  line: number
  /** seq of the next frame (the entry is shown before it); frameCount when none followed. */
  beforeFrame: number
}

export interface JsonSyntaxError {
  message: string
  /** Character position inside the frame's data. */
  position: number
}

// ---------------------------------------------------------------------------
// Neutral deltas: what a provider adapter emits for one parsed frame.
// The accumulator applies them without knowing the provider.

export type Channel = 'content' | 'reasoning' | 'refusal'

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
}

// ---------------------------------------------------------------------------
// Beside the Reply: what the panel and the CLI show.

export interface StreamError {
  frame: number
  message: string
  code: string | number | null
  type: string | null
  payload: unknown
}

export interface Diagnostic {
  /** The frame it concerns; null for the stream as a whole. */
  frame: number | null
  level: 'info' | 'warning' | 'error'
  code: DiagnosticCode
  message: string
  /** What a client that reads this wrongly shows, in one sentence (SYMPTOMS[code] unless the push site says more). */
  symptom: string
  byteOffset?: number
  offset?: number
  /** 1-based line number, when it concerns one line (an ignored SSE field). */
  line?: number
}

export type DiagnosticCode =
  | 'invalid-utf8'
  | 'unterminated-frame'
  | 'unknown-transport'
  | 'binary-eventstream'
  | 'unknown-provider'
  | 'no-terminal-event'
  | 'final-mismatch'
  | 'tool-name-changed'
  | 'arguments-invalid'
  | 'note'
  | 'truncated-json-array'
  | 'stray-text'
  | 'invalid-retry'
  | 'unknown-field'
  // the debugger's (src/debug/diagnose.ts): frames, reads and times
  | 'glued-frames'
  | 'missing-data-prefix'
  | 'mixed-line-endings'
  | 'bom'
  | 'frame-split-across-reads'
  | 'utf8-split-across-reads'
  | 'stall'
  | 'burst'
  | 'empty-reply'
  | 'inline-think-tags'
  // the accumulator's: what the deltas say
  | 'data-after-done'
  | 'content-after-finish'
  | 'duplicate-finish'
  | 'reused-tool-index'
  | 'missing-tool-index'
  | 'truncated-by-limit'
  | 'provider-error'
  // merge modes: a snapshot that does not extend the previous one
  | 'snapshot-rewrote'
  // limits (docs/architecture.md#limits): a value nested too deep, a frame an adapter could not read
  | 'too-deep'
  | 'frame-failed'

/** A run of reply text and the frame that produced it. */
export interface Provenance {
  frame: number
  choice: number
  channel: Channel | 'arguments'
  /** For 'arguments': the position of the call in choice.toolCalls. */
  toolCall: number | null
  /** Character range inside that field's final text. */
  start: number
  end: number
}

/** One Provenance record as its fields (Merger.eachProvenance: no object per record). */
export type ProvenanceVisit = (frame: number, choice: number, channel: Channel | 'arguments', toolCall: number | null, start: number, end: number) => void

export interface MergeOptions {
  provider?: ProviderId
  transport?: Transport
  /** The response's Content-Type, when known: helps transport detection. */
  contentType?: string
  /** The request URL, when known: helps provider detection. */
  url?: string
  /**
   * Keep the whole body, so any frame's raw text can be read later (default true). With
   * false, only frames completed by the latest push stay readable: memory stays flat for
   * any body size (the CLI streams files this way).
   */
  retainBody?: boolean
  /**
   * Where the body's bytes can be read back (a file the caller holds): the merger then drops
   * the bytes pushed to it once their frames are merged, as with retainBody: false, and reads
   * frames' text, body() and replays from here instead. It must return exactly the bytes
   * pushed at [from, to): a 300 MB file opened in the panel costs its frames, not its bytes.
   */
  bodyReader?: BodyReader
}

/** The body's bytes [from, to) as they were pushed, read back from where the caller keeps them. */
export type BodyReader = (from: number, to: number) => Uint8Array
