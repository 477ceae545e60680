// The memory test's reference: the core alone on a file, read in the same chunks as the CLI,
// with no output. The CLI's peak RSS is compared with this one's.
import { createReadStream } from 'node:fs'
import { createMerger } from '../../src/index.js'

const merger = createMerger({ retainBody: false })
for await (const chunk of createReadStream(process.argv[2]!, { highWaterMark: 1 << 18 })) merger.push(chunk as Buffer)
merger.end()
