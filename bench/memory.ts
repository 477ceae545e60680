// Child process: peak memory of the merger on one input, above the baseline of holding the
// input itself. The input is read from a file (the parent wrote it), so loading it leaves no
// transient high-water mark above the baseline. Prints JSON. Run by bench/run.ts.
//   mode "merge": merge(bytes) (reply only); mode "retain": createMerger().push() in 64 KiB
//   chunks, keeping the body and every frame for inspection (what the panel does).

import { readFileSync } from 'node:fs'
import { createMerger, merge } from '../src/library.js'

const [file, mode] = [process.argv[2]!, process.argv[3] as 'merge' | 'retain']
const bytes: Uint8Array = readFileSync(file) // a Buffer is a Uint8Array: no second copy
globalThis.gc?.()
const baseline = process.memoryUsage().rss
let frames = 0
if (mode === 'merge') frames = merge(bytes).frameCount
else {
  const m = createMerger()
  for (let i = 0; i < bytes.length; i += 65536) m.push(bytes.subarray(i, i + 65536))
  frames = m.end().frameCount
}
const peak = process.resourceUsage().maxRSS * 1024
console.log(JSON.stringify({ mode, inputBytes: bytes.length, baselineRss: baseline, peakRss: peak, aboveBaseline: Math.max(0, peak - baseline), frames }))
