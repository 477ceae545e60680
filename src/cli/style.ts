// ANSI colour, only when asked for: stdout is a terminal and NO_COLOR is not set.

export interface Style {
  bold(s: string): string
  dim(s: string): string
  red(s: string): string
  yellow(s: string): string
  green(s: string): string
  cyan(s: string): string
  magenta(s: string): string
}

const id = (s: string): string => s

export const PLAIN: Style = { bold: id, dim: id, red: id, yellow: id, green: id, cyan: id, magenta: id }

const sgr = (open: number, close: number) => (s: string): string => (s === '' ? s : `\x1b[${open}m${s}\x1b[${close}m`)

export const ANSI: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  yellow: sgr(33, 39),
  green: sgr(32, 39),
  cyan: sgr(36, 39),
  magenta: sgr(35, 39),
}

/** https://no-color.org: NO_COLOR set to a non-empty value turns colour off. */
export function wantsColor(isTTY: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTTY === true && !env['NO_COLOR']
}
