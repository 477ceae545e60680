// The dedicated Worker the panel's store runs in (host.ts), started by the shell's page: the
// standalone page from an inline Blob (a page opened from file:// can start no worker from a
// file), the DevTools panel from the extension's own file (an extension page's CSP admits
// no blob: worker).

import { createStoreHost } from './host.js'
import type { FromStore, Port, ToStore } from './protocol.js'

createStoreHost(globalThis as unknown as Port<ToStore, FromStore>)
