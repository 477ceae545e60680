// Test builds only (vite.config.ext.ts with DELTASCOPE_PROBE_URL): the panel reports what it
// shows to a loopback test server. WebDriver BiDi cannot script extension pages in Firefox
// (Mozilla bug 1755014), so test/e2e/firefox.test.ts reads the real panel this way. The
// server asks, the panel answers; there is no eval, only two operations:
// - `read`: every element matching a selector, with its text, title, dataset, checked and
//   disabled state, and the nearest matched ancestor (so rows and their cells stay together);
// - `click`: clicks the first element matching a selector (and a title, when given).

export interface ProbeNode {
  /** Index of the nearest ancestor in the same answer, or -1. */
  parent: number
  tag: string
  className: string
  text: string
  title: string
  data: Record<string, string>
  checked: boolean | null
  disabled: boolean | null
}

export type ProbeCommand =
  | { id: number; op: 'idle' }
  | { id: number; op: 'read'; selector: string }
  | { id: number; op: 'click'; selector: string; title?: string }

export function startProbe(base: string): void {
  const loop = async (): Promise<void> => {
    for (;;) {
      let cmd: ProbeCommand
      try {
        // A long poll: the server answers when it has a command, or `idle` after a while.
        const res = await fetch(`${base}/probe/next`, { method: 'POST', cache: 'no-store', body: location.href })
        cmd = (await res.json()) as ProbeCommand
      } catch {
        await new Promise((r) => setTimeout(r, 250))
        continue
      }
      if (cmd.op === 'idle') continue
      let answer: { id: number; ok: boolean; value?: unknown; error?: string }
      try {
        answer = { id: cmd.id, ok: true, value: run(cmd) }
      } catch (e) {
        answer = { id: cmd.id, ok: false, error: String(e) }
      }
      await fetch(`${base}/probe/result`, { method: 'POST', body: JSON.stringify(answer) }).catch(() => undefined)
    }
  }
  void loop()
}

function run(cmd: Exclude<ProbeCommand, { op: 'idle' }>): unknown {
  if (cmd.op === 'read') {
    const els = [...document.querySelectorAll<HTMLElement>(cmd.selector)]
    const index = new Map<Element, number>(els.map((el, i) => [el, i]))
    return els.map((el): ProbeNode => {
      let parent = -1
      for (let p = el.parentElement; p; p = p.parentElement) {
        const i = index.get(p)
        if (i !== undefined) { parent = i; break }
      }
      const input = el as HTMLInputElement
      return {
        parent,
        tag: el.tagName.toLowerCase(),
        className: typeof el.className === 'string' ? el.className : '',
        text: el.textContent ?? '',
        title: el.title,
        data: { ...el.dataset } as Record<string, string>,
        checked: typeof input.checked === 'boolean' ? input.checked : null,
        disabled: typeof input.disabled === 'boolean' ? input.disabled : null,
      }
    })
  }
  const el = [...document.querySelectorAll<HTMLElement>(cmd.selector)].find((e) => cmd.title === undefined || e.title === cmd.title)
  if (!el) return false
  el.click()
  return true
}
