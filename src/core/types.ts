// The shapes that cross stage boundaries: bytes → frames → deltas → reply.
// Everything here is plain data (structured-clone safe), so the panel can receive it
// over postMessage and a fixture can store it as JSON.

/** A choice's text channels: the answer, the reasoning kept apart from it, a refusal. */
export type Channel = 'content' | 'reasoning' | 'refusal'

/** How the body is cut into frames (docs/architecture.md#framing). */
/** `websocket`: a turn of a WebSocket connection, its frames the connection's messages (src/core/connection.ts). */
export type Transport = 'sse' | 'ndjson' | 'json' | 'data-stream' | 'eventstream' | 'connect' | 'websocket' | 'unknown'

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
  /**
   * The run as its messages (docs/architecture.md#messages): for a protocol with message ids,
   * each message apart, in the protocol's order; for the rest, each choice as one message.
   */
  messages: ReplyMessage[]
  usage: Record<string, unknown> | null
  errors: FrameError[]
}

/** One message of a run: an assistant's turn, a tool's result, a subagent's reply. */
export interface ReplyMessage {
  /** The wire's message id; null for a choice shown as a message (the wire names none). */
  id: string | null
  role: string | null
  /** Who wrote it, when the wire says (a subagent's lane, a graph node). */
  name?: string
  parts: ReplyMessagePart[]
}

export type ReplyMessagePart =
  | { type: 'text' | 'reasoning' | 'refusal'; text: string }
  | ReplyToolCallPart
  | { type: 'tool-result'; toolCallId: string | null; output: unknown; isError: boolean }
  | { type: 'source' | 'file' | 'data'; data: unknown }
  | { type: 'error'; message: string }

export interface ReplyToolCallPart {
  type: 'tool-call'
  id: string | null
  name: string | null
  /** Exactly the concatenated fragments. */
  arguments: string
  parsedArguments: unknown | null
  argumentsError: string | null
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

/** A run of a message part's text and the frame that wrote it (Merger.partProvenance). */
export interface PartProvenance {
  frame: number
  /** Positions in Reply.messages and in that message's parts. */
  message: number
  part: number
  /** Character range inside the part's text (a tool call's: its arguments). */
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
