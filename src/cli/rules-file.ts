// --rules FILE: a user rules file (docs/rules.md), read and checked
// before any input is opened; a bad file is one line on stderr, every problem named by its field.

import { checkRules, type Rules } from '../library.js'
import { InputError, readText } from './io.js'

export async function readRulesFile(file: string): Promise<Rules> {
  const text = await readText(file)
  const check = checkRules(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  if (!check.ok) {
    const where = file === '-' ? 'stdin' : file
    throw new InputError(`${where}: not usable rules: ${check.errors.join('; ')}`)
  }
  return check.rules
}
