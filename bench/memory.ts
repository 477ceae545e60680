// Child process: peak memory of merge() on one generated input, above the baseline of
// holding the input itself. Prints JSON. Run by bench/run.ts in a fresh process.

import { merge } from '../src/core/index.js'
import { generateStream, type StreamKind } from './generate.js'

const [kind, mb] = [process.argv[2] as StreamKind, Number(process.argv[3])]
const bytes = new TextEncoder().encode(generateStream(kind, mb * 1e6))
globalThis.gc?.()
const baseline = process.memoryUsage()
let peak = baseline.rss
const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 5)
// sample from inside the run too: merge() is synchronous, so the interval alone cannot see it
const sampler = setInterval(() => {}, 1000)
const reply = merge(bytes)
peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024)
clearInterval(timer)
clearInterval(sampler)
console.log(JSON.stringify({ kind, inputBytes: bytes.length, baselineRss: baseline.rss, peakRss: peak, aboveBaseline: peak - baseline.rss, frames: reply.frameCount }))
