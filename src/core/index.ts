// The core: bytes → frames → deltas → Reply, knowing no provider. The providers are handed to
// it as a registry; the library face (src/library.ts) composes the two.

export { createMerger, merge, type Merger } from './merger.js'
export { createProviderRegistry } from './registry.js'
export { findJsonSyntaxError, parseJson } from './json-error.js'
export { jsonText, MAX_JSON_DEPTH } from './json-depth.js'
export { readSseBlock } from './sse.js'
export { sniffTransport, transportFromContentType } from './transport.js'
export { looksLikePrelude as isEventStreamPrelude } from './eventstream.js'
export { looksLikeEnvelope as isConnectEnvelope } from './connect.js'
export { utf8Length } from './utf8.js'
export { choiceMessages } from './messages.js'
export { SYMPTOMS } from './symptoms.js'
export type * from './types.js'
export type * from './adapters.js'
export { createConnection, type Connection, type ConnectionClose, type ConnectionOptions, type Turn, type TurnState } from './connection.js'
export { HEX_SHOWN, type WsDirection, type WsFrame, type WsFrameKind, type WsMessage, type WsProtocol } from './ws-message.js'
