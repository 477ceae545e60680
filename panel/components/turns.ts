// Rendering spread over animation frames takes turns, page-wide: one step per frame, whoever
// asks. Each long text laid out in steps (ProgressiveText) and each long list growing to its
// limit (useStaggered) used to take its own step every frame; a reply whose reasoning and
// content both end in one batch then laid out two steps, plus the lists beside them, in one
// frame (a 140 ms task at the end of a 64 MB ingest). Steps are sized for one frame each; here
// they get one frame each.

/** Waiting for a turn, in the order they asked. */
const waiting = new Set<() => void>()
/** A step was given in the frame being built: the next waits for the next frame. */
let spent = false
let pumping = false

const hasFrames = () => typeof requestAnimationFrame === 'function'

/** Marks this frame's step as given; the mark ends with the frame (or, without frames, soon). */
function spend(): void {
  spent = true
  if (hasFrames()) requestAnimationFrame(() => setTimeout(() => { spent = false }, 0))
  else setTimeout(() => { spent = false }, 16)
}

/**
 * A first step to render at once, when no other was given in this frame: a text or list that
 * appears alone shows its first step without waiting a frame, and two that appear together
 * show one now and the other a frame later.
 */
export function stepNow(): boolean {
  if (spent) return false
  spend()
  return true
}

/**
 * `go` runs in a later frame, one caller per frame in the order they asked (after that frame
 * is drawn; a hidden page has no frames: a timer). Returns a cancel.
 */
export function nextTurn(go: () => void): () => void {
  waiting.add(go)
  pump()
  return () => { waiting.delete(go) }
}

function pump(): void {
  if (pumping || waiting.size === 0) return
  pumping = true
  let fired = false
  const fire = () => {
    if (fired) return
    fired = true
    pumping = false
    const next = waiting.values().next()
    if (!next.done) {
      waiting.delete(next.value)
      spend()
      next.value()
    }
    pump()
  }
  // after the frame that showed the last step: the next one; a hidden page's timer
  if (hasFrames()) requestAnimationFrame(() => setTimeout(fire, 0))
  setTimeout(fire, 100)
}
