// What a client that reads the stream wrongly shows, one sentence per diagnostic code: the
// `symptom` every Diagnostic carries (a push site may say it more precisely). The record is
// complete by type: a new DiagnosticCode does not compile until it has its sentence here.

import type { DiagnosticCode } from './types.js'

export const SYMPTOMS: Readonly<Record<DiagnosticCode, string>> = {
  // framing and decoding
  'invalid-utf8': 'A client shows U+FFFD (�) where these bytes were, and one decoding with fatal: true throws and shows nothing.',
  'unterminated-frame': 'A client that follows the SSE spec (eventsource-parser, fetch-event-source) drops this last frame, and what it carries (often the finish reason) is missing.',
  'unknown-transport': 'No client can read frames from this body: it shows nothing or a parse error.',
  'binary-eventstream': 'A client that reads the body as SSE or text shows binary garbage or nothing: it needs an AWS event-stream decoder.',
  'unknown-provider': 'A client written for a known provider finds none of its fields here and shows an empty reply.',
  'no-terminal-event': 'A client waiting for the end marker hangs or reports an error, and one that does not wait shows a possibly cut reply as if it were whole.',
  'truncated-json-array': 'A client that parses the body as one JSON array fails on the whole body and shows nothing.',
  'stray-text': 'A client that parses the body as one JSON array fails on the whole body and shows nothing.',
  'invalid-retry': 'EventSource ignores this retry line, and a client that reads it as a number gets NaN and may reconnect at once or never.',
  'unknown-field': 'Every SSE client ignores this line, so whatever it was meant to carry never shows.',
  'glued-frames': 'A client that parses each frame as one JSON value fails on this frame and loses the text of every frame glued into it.',
  'missing-data-prefix': 'An SSE client ignores this line (it is not a data field), so the delta it carries never shows.',
  'data-after-done': 'A client that stops reading at the end marker never shows what these frames carry.',
  'mixed-line-endings': 'A client that splits frames on one kind of line ending ("\\n\\n" only) merges or loses the frames written with another.',
  'bom': 'A client that does not drop the byte order mark reads the first field as "\\uFEFFdata", not "data", and loses the first frame.',
  'frame-split-across-reads': 'A client that parses each read on its own loses it.',
  'utf8-split-across-reads': 'A client that decodes each read on its own (TextDecoder without stream: true) shows U+FFFD (�) instead of this character.',
  'stall': 'The reply stops growing for this long: a client with a shorter read timeout gives up here and shows a cut reply.',
  'burst': 'The reply appears all at once after a long wait instead of word by word: a proxy, compression or the server buffered the stream.',
  // merging
  'final-mismatch': 'A client that takes the final event\'s value shows different text than one that concatenates the deltas.',
  'tool-name-changed': 'A client that keeps the first name fragment calls a tool that does not exist, and one that keeps the last loses the start of the name.',
  'arguments-invalid': 'A client that parses the tool arguments fails, or runs the tool with arguments it repaired by guessing.',
  'note': 'Nothing in the reply depends on it, but a client that does not expect this event may fail on it.',
  'content-after-finish': 'A client that closes a choice at its finish reason drops the text that came after it.',
  'duplicate-finish': 'A client that appends finish reasons or fires its finish handler on each shows "stopstop" or finishes the reply twice.',
  'inline-think-tags': 'A client that shows the content as it is shows the model\'s reasoning, tags and all, as part of the answer.',
  'reused-tool-index': 'A client that keys tool calls by index alone merges two calls into one, with arguments like {"a":1}{"b":2} that do not parse.',
  'missing-tool-index': 'A client that keys tool calls by index (the openai SDK) throws here or merges every call into one.',
  'truncated-by-limit': 'The reply stops mid-sentence (or mid tool call) at the token limit, and a client that ignores the finish reason shows it as complete.',
  'provider-error': 'A client that throws on the error payload loses the partial reply, and one that ignores it shows a cut reply as if it were whole.',
  'snapshot-rewrote': 'A client that appends snapshots repeats the text, and one that appends only what lies past the old length keeps the old words where the snapshot rewrote them.',
  'empty-reply': 'The client shows an empty message.',
  // limits
  'too-deep': 'A client that parses or prints this value recursively (JSON.stringify, a tree view, a deep copy) overflows its stack and throws.',
  'frame-failed': 'A client that reads this frame the same way throws here and loses the rest of the stream.',
}
