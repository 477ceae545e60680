// A captured string that may be huge (a frame's raw text, a JSON string value): its first
// DISPLAY_CUT characters, then "… N more characters: show all · copy all". Show all lays the
// rest out progressively (ProgressiveText); copy all puts the whole text on the clipboard.
// Text only, never markup; invisible characters marked (VisibleText).

import { useMemo, useState } from 'preact/hooks'
import { usePanel } from '../context.js'
import { formatCount } from '../format.js'
import { cutText, DISPLAY_CUT } from '../long-text.js'
import { ProgressiveText } from './ProgressiveText.js'
import { VisibleText } from './VisibleText.js'

interface Props {
  text: string
  /** What "copy all" copies (default: the text). */
  copyText?: string
  /** Says what was copied, in the status line. */
  what?: string
  limit?: number
}

export function LongText({ text, copyText, what = 'text', limit = DISPLAY_CUT }: Props) {
  const [all, setAll] = useState(false)
  const { head, hidden } = cutText(text, limit)
  const pieces = useMemo(() => [{ text }], [text])
  if (hidden === 0) return <VisibleText text={text} />
  if (all) return <ProgressiveText pieces={pieces} />
  return (
    <>
      <VisibleText text={head} />
      <CutNote hidden={hidden} onShow={() => setAll(true)} copy={copyText ?? text} what={what} />
    </>
  )
}

/** "… N more characters: show all · copy all" (not part of the text: copying a selection leaves it out). */
export function CutNote({ hidden, onShow, copy, what }: { hidden: number; onShow: () => void; copy: string; what: string }) {
  const { shell, ui } = usePanel()
  const copyAll = async () => {
    try {
      await shell.copy(copy)
      ui.status.value = `Copied all ${formatCount(copy.length)} characters of the ${what}`
    } catch {
      ui.status.value = 'Copy failed'
    }
  }
  return (
    <span class="ds-cut" data-testid="long-cut" data-hidden={hidden} contentEditable={false} style={{ userSelect: 'none' }}>
      {' '}… {formatCount(hidden)} more character{hidden === 1 ? '' : 's'}:{' '}
      <button type="button" class="ds-link" data-testid="long-show-all" onClick={onShow}>show all</button>
      {' · '}
      <button type="button" class="ds-link" data-testid="long-copy-all" onClick={() => void copyAll()}>copy all</button>
    </span>
  )
}
