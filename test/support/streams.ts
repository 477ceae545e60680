// OpenAI chat-completion stream text for tests, written as the API writes it.

/** The fields of a chunk around its one choice: `id`, `created` and `model` come before `choices`, the rest after. */
export interface ChunkFields {
  /** The chunk's id; 'c' by default; null writes none. */
  id?: string | null
  created?: number
  model?: string
  [field: string]: unknown
}

/**
 * One SSE event holding a chat.completion.chunk whose choice 0 carries `delta` and `finish`:
 * `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":…,"finish_reason":null}]}`
 * and a blank line.
 */
export function openaiChunk(delta: object, finish: string | null = null, fields: ChunkFields = {}): string {
  const { id = 'c', created, model, ...after } = fields
  const json = {
    ...(id === null ? {} : { id }),
    object: 'chat.completion.chunk',
    ...(created === undefined ? {} : { created }),
    ...(model === undefined ? {} : { model }),
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...after,
  }
  return `data: ${JSON.stringify(json)}\n\n`
}

/** The event that ends an OpenAI stream. */
export const DONE = 'data: [DONE]\n\n'

/** A whole stream: a chunk per piece of content (the first with the assistant role), a finish chunk, [DONE]. */
export function openaiStream(contents: readonly string[], finish = 'stop', fields: ChunkFields = {}): string {
  const chunks = contents.map((content, i) => openaiChunk(i === 0 ? { role: 'assistant', content } : { content }, null, fields))
  return chunks.join('') + openaiChunk({}, finish, fields) + DONE
}
