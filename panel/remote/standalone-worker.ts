// The dedicated Worker the standalone page's store runs in (host.ts), started from an inline
// Blob (a page opened from file:// can start no worker from a file). The DevTools panel has
// its own (src/shells/extension/devtools-worker.ts), which also takes the capture events from the hub.

import { createStoreHost } from './host.js'
import type { FromStore, Port, ToStore } from './protocol.js'

createStoreHost(globalThis as unknown as Port<ToStore, FromStore>)
