// Why a client's reply differs from the reference: the documented causes compareReply names,
// in the order it tries them (the first that explains a difference wins).

export const COMPARE_CAUSES = {
  'utf8-split': 'A multi-byte character split across network reads came out as U+FFFD or mojibake: the client decoded each read without {stream: true}.',
  'reasoning-in-content': 'The reasoning text landed in the content: the client wrote both channels into one buffer.',
  'content-in-reasoning': 'The content text landed in the reasoning: the client wrote both channels into one buffer.',
  'overwritten': 'The client kept only the last delta (or the last few) of the field: it replaced the text instead of appending.',
  'duplicated-frames': "One or more frames' text appears twice: the client applied a frame again.",
  'truncated': "The reference's text cut at a frame boundary: the client stopped early (often at a broken frame, an error or a missing terminal event).",
  'dropped-frames': 'The whole text of one or more frames is missing and the rest is equal: the client lost frames (often frames split across network reads).',
  'tool-calls-merged': 'Two or more tool calls became one: the client keyed calls by name, or put every call at index 0.',
  'tool-calls-split': 'One tool call became several: the client started a new call for a fragment that continued one.',
  'tool-arguments-differ': "A tool call's arguments differ in a way no cause above explains.",
  'finish-reason-differs': "The client's finish reason is not the reference's.",
  'other': 'A difference none of the causes above explains (also: a client result compareReply cannot read).',
} as const

export type CompareCause = keyof typeof COMPARE_CAUSES
