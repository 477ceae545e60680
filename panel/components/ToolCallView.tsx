// One tool call: name, id, type, and its arguments pretty-printed, or the parse error and the
// raw string. The raw string is shown (and traced) when the selected frame wrote into it.

import { useState } from 'preact/hooks'
import type { ReplyToolCall } from '../../src/library.js'
import type { FieldRef } from '../provenance.js'
import type { Highlight } from '../store.js'
import { TracedText } from './TracedText.js'
import { VisibleText } from './VisibleText.js'

interface Props {
  call: ReplyToolCall
  field: FieldRef
  marks: Highlight[]
  /** The reply is not final (rewound, or still streaming): arguments may be incomplete. */
  partial: boolean
  growing?: boolean
}

export function ToolCallView({ call, field, marks, partial, growing = false }: Props) {
  const [rawChosen, setRaw] = useState(false)
  const broken = call.argumentsError !== null
  const raw = rawChosen || broken || marks.length > 0
  return (
    <div class="ds-tool" data-testid="tool-call" data-index={call.index}>
      <div class="ds-tool-head">
        <span class="name" data-testid="tool-name">{call.name === null ? '(no name)' : <VisibleText text={call.name} />}</span>
        <span class="id" data-testid="tool-id">{call.id === null ? '(no id)' : <VisibleText text={call.id} />}</span>
        {call.type !== null && call.type !== 'function' && <span>{call.type}</span>}
        <span>index {call.index}</span>
        <span class="ds-spacer" />
        {!broken && marks.length === 0 && (
          <button type="button" class="ds-link" onClick={() => setRaw(!rawChosen)}>
            {raw ? 'pretty' : 'raw'}
          </button>
        )}
      </div>
      <div class="ds-tool-body">
        {broken && (partial
          ? <div class="ds-status" data-testid="tool-partial">arguments so far (not complete JSON yet)</div>
          : <div class="ds-tool-error" data-testid="tool-error">arguments are not valid JSON: {call.argumentsError}</div>)}
        {raw ? (
          <TracedText testid="tool-arguments" mono text={call.arguments} field={field} marks={marks} growing={growing} />
        ) : (
          <pre class="ds-text mono" data-testid="tool-arguments-pretty"><VisibleText text={JSON.stringify(call.parsedArguments, null, 2)} /></pre>
        )}
      </div>
    </div>
  )
}
