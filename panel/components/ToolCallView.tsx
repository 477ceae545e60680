// One tool call: name, id, type, and its arguments pretty-printed, or the parse error and the
// raw string. Both views are traced: a click on a character finds the frame that sent it
// (the pretty text is mapped to the raw string token by token, panel/json-align.ts). The raw
// string is shown when the selected frame wrote into it (its fragment is exactly what the
// frame added), unless the user chose the pretty view or clicked in it.

import { useMemo, useState } from 'preact/hooks'
import type { ReplyToolCall } from '../../src/library.js'
import { alignJson } from '../json-align.js'
import type { FieldRef } from '../provenance.js'
import type { Highlight } from '../store/index.js'
import { TEXT_WINDOW, TracedText } from './TracedText.js'
import { LongText } from './LongText.js'
import { VisibleText } from './VisibleText.js'

interface Props {
  call: ReplyToolCall
  field: FieldRef
  marks: Highlight[]
  /** The text the frames a search matched wrote into the arguments. */
  found?: Highlight[]
  /** The reply is not final (rewound, or still streaming): arguments may be incomplete. */
  partial: boolean
  growing?: boolean
}

const NONE: Highlight[] = []

export function ToolCallView({ call, field, marks, found = NONE, partial, growing = false }: Props) {
  /** 'auto': raw when the selected frame wrote into the call, else pretty; or what the user chose. */
  const [mode, setMode] = useState<'auto' | 'raw' | 'pretty'>('auto')
  const broken = call.argumentsError !== null
  const raw = broken || mode === 'raw' || (mode === 'auto' && marks.length > 0)
  const pretty = useMemo(() => (broken ? '' : JSON.stringify(call.parsedArguments, null, 2)), [broken, call.parsedArguments])
  const align = useMemo(() => (broken || raw ? null : alignJson(call.arguments, pretty)), [call.arguments, pretty, broken, raw])
  const toPretty = (list: Highlight[]) => (align === null || list.length === 0 ? NONE : list.map((h) => ({ ...h, start: align.toPretty(h.start), end: align.toPretty(h.end) })))
  return (
    <div class="ds-tool" data-testid="tool-call" data-index={call.index}>
      <div class="ds-tool-head">
        <span class="name" data-testid="tool-name">{call.name === null ? '(no name)' : <VisibleText text={call.name} />}</span>
        <span class="id" data-testid="tool-id">{call.id === null ? '(no id)' : <VisibleText text={call.id} />}</span>
        {call.type !== null && call.type !== 'function' && <span>{call.type}</span>}
        <span>index {call.index}</span>
        <span class="ds-spacer" />
        {!broken && (
          <button type="button" class="ds-link" onClick={() => setMode(raw ? 'pretty' : 'raw')}>
            {raw ? 'pretty' : 'raw'}
          </button>
        )}
      </div>
      <div class="ds-tool-body">
        {broken && (partial
          ? <div class="ds-status" data-testid="tool-partial">arguments so far (not complete JSON yet)</div>
          : <div class="ds-tool-error" data-testid="tool-error">arguments are not valid JSON: {call.argumentsError}</div>)}
        {raw ? (
          <TracedText testid="tool-arguments" mono text={call.arguments} field={field} marks={marks} found={found} growing={growing} />
        ) : align ? (
          // clicking here keeps the pretty view: the frame found is marked in it
          <div class="ds-pretty" onClick={() => setMode('pretty')}>
            <TracedText testid="tool-arguments-pretty" mono text={pretty} field={field} marks={toPretty(marks)} found={toPretty(found)} toField={align.toRaw} />
          </div>
        ) : (
          <pre class="ds-text mono" data-testid="tool-arguments-pretty"><LongText text={pretty} limit={TEXT_WINDOW} what="arguments" /></pre>
        )}
      </div>
    </div>
  )
}
