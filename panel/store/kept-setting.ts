// A setting the user edits and the shell keeps as one string (the redaction list, the stream
// rules): loaded once when the panel opens, saved on each change. Storage is outside data: the
// caller decodes and checks what it gives back. A change made before the stored value arrived
// wins over it; a failure to load or save is said in `status`, and the value in memory still
// applies until the panel closes.

import { signal, type ReadonlySignal } from '@preact/signals'

/** One string kept by the shell (PanelShell's redactionStore, rulesStore). */
export interface StringStore {
  load(): Promise<string | null>
  save(value: string): Promise<void>
}

export interface KeptSetting<T> {
  readonly value: ReadonlySignal<T>
  /** '' when all is kept; else what went wrong loading or saving. */
  readonly status: ReadonlySignal<string>
  /** Resolves when the stored value has been read (or could not be). */
  readonly ready: Promise<void>
  /** Sets the value and saves it. */
  keep(next: T): Promise<void>
}

export interface SettingCodec<T> {
  /** The stored text's value, and what was wrong with it ('' when nothing). */
  decode(text: string): { value: T; problem: string }
  encode(value: T): string
  /** The status when loading failed, and when saving did. */
  loadFailed(reason: string): string
  saveFailed(reason: string): string
}

export function keptSetting<T>(initial: T, codec: SettingCodec<T>, store?: StringStore): KeptSetting<T> {
  const value = signal(initial)
  const status = signal('')
  let edited = false

  const ready = (async () => {
    if (!store) return
    try {
      const text = await store.load()
      if (text === null || edited) return
      const decoded = codec.decode(text)
      value.value = decoded.value
      status.value = decoded.problem
    } catch (err) {
      status.value = codec.loadFailed(message(err))
    }
  })()

  return {
    value,
    status,
    ready,
    async keep(next) {
      edited = true
      value.value = next
      status.value = ''
      if (!store) return
      try {
        await store.save(codec.encode(next))
      } catch (err) {
        status.value = codec.saveFailed(message(err))
      }
    },
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
