// Deltascope's library: the same merger the DevTools panel, the standalone page and the CLI run.

export { createMerger, merge, type Merger } from './merger.js'
export { findJsonSyntaxError, parseJson } from './json-error.js'
export { readSseBlock } from './sse.js'
export { sniffTransport, transportFromContentType } from './transport.js'
export { ADAPTERS, adapterFor, providerFromUrl } from '../providers/index.js'
export type * from './types.js'
