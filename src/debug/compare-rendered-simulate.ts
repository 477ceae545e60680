// When the page's text differs in a way the rendered runs do not explain: the reply's Markdown
// as a client with one bug would have it, rendered again. A frame lost or applied twice can
// change the Markdown's structure (half of a "**" pair, a list item's marker), so its text is
// not simply missing from the rendered reply; rendering what that client had finds it. Tried
// in compareReply's order (overwritten, duplicated-frames, truncated, dropped-frames), each
// candidate rendered and normalised as the page's text was.

import { frameSplitAcrossReads, type Reference, type TextRun } from './compare-reference.js'
import type { CompareCause } from './compare-causes.js'
import { frames, quote, reads } from './compare-words.js'

/** Above this many runs of text, no candidate is rendered (each is a whole rendering). */
const MAX_RUNS = 400

export interface Simulated {
  cause: CompareCause
  frame: number
  message: string
}

/**
 * The cause whose client would show exactly `got`, or null. `runs`: the content's runs by
 * frame (source offsets); `show`: the content rendered and normalised as compared, or null
 * when it cannot be `got` (known without rendering it).
 */
export function simulate(ref: Reference, runs: readonly TextRun[], got: string, show: (source: string) => string | null): Simulated | null {
  if (runs.length === 0 || runs.length > MAX_RUNS) return null
  const join = (rs: readonly TextRun[]) => rs.map((r) => r.text).join('')
  const distinct = (rs: readonly TextRun[]) => [...new Set(rs.map((r) => r.frame))]
  const all = distinct(runs)

  // overwritten: only the last runs' text
  for (let k = 1; k < runs.length; k++) {
    if (show(join(runs.slice(k))) !== got) continue
    const kept = distinct(runs.slice(k))
    const last = kept.length === 1 ? 'the last' : `the last ${kept.length}`
    return { cause: 'overwritten', frame: runs[k]!.frame, message: `The client kept only the text of ${frames(kept)} (${last} of ${all.length} frames writing the content): it replaced the content with each delta instead of appending.` }
  }
  // duplicated-frames: one frame's text applied twice
  for (let k = 0; k < runs.length; k++) {
    if (show(join([...runs.slice(0, k + 1), runs[k]!, ...runs.slice(k + 1)])) !== got) continue
    return { cause: 'duplicated-frames', frame: runs[k]!.frame, message: `The client applied frame ${runs[k]!.frame} twice: its text ${quote(runs[k]!.text)} appears twice in the content.` }
  }
  // truncated: the text up to a frame, and nothing after
  for (let k = runs.length - 1; k >= 0; k--) {
    if (show(join(runs.slice(0, k))) !== got) continue
    const lost = distinct(runs.slice(k))
    const what = lost.length === 1 ? `the text of frame ${lost[0]}` : `the text of ${frames(lost)}`
    return { cause: 'truncated', frame: runs[k]!.frame, message: `The page shows the content only up to before ${what}: the client stopped early.` }
  }
  // dropped-frames: the frames split across reads (when the reads are known), else any one frame
  const split = all.filter((f) => frameSplitAcrossReads(ref, f) !== null)
  const sets = split.length > 0 ? [split] : []
  for (const f of all) sets.push([f])
  for (const lost of sets) {
    const gone = new Set(lost)
    if (show(join(runs.filter((r) => !gone.has(r.frame)))) !== got) continue
    const firstText = runs.find((r) => r.frame === lost[0])!.text
    let message = `The client dropped ${frames(lost)}: ${lost.length === 1 ? 'its' : 'their'} text (${quote(firstText)}${lost.length > 1 ? ', …' : ''}) is missing from the content`
    if (lost.every((f) => frameSplitAcrossReads(ref, f) !== null)) {
      const spans = lost.slice(0, 3).map((f, i) => `frame ${f}${i === 0 ? ' arrived split' : ''} across ${reads(frameSplitAcrossReads(ref, f)!)}`)
      if (lost.length > 3) spans.push(`${lost.length - 3} more likewise`)
      message += `; ${spans.join(', ')}: a client that parses each read on its own drops ${lost.length === 1 ? 'it' : 'them'}`
    }
    return { cause: 'dropped-frames', frame: lost[0]!, message: `${message}.` }
  }
  return null
}
