// The store's calls written once (panel/store/calls.ts): the mirror's `ask`, the worker's
// answers and the store's commands are typed by the one map. These are specifications for the
// compiler: `npm run typecheck` compiles this file (tsconfig.json includes test/), and each
// `@ts-expect-error` line must be an error there, or the typecheck fails. Nothing here needs
// to run; the one test says the specs are present.

import { describe, expect, it } from 'vitest'
import type { Frame } from '../../src/library.js'
import type { Ask, Command, QuestionHandlers } from '../../panel/remote/protocol.js'
import type { CommandName, QuestionName, StoreCommands } from '../../panel/store/calls.js'
import type { PanelStore } from '../../panel/store/index.js'

export function compilerSpecs(ask: Ask, handlers: QuestionHandlers, store: PanelStore): unknown[] {
  // the answer's type follows from the question's name
  const frame: Promise<Frame | null> = ask('frame', 3)
  const found: Promise<boolean> = ask('selectFrameAt', { kind: 'content', choice: 0 } as never, 4)
  // @ts-expect-error a frame is not a boolean: a caller cannot pick the answer type
  const wrongAnswer: Promise<boolean> = ask('frame', 3)
  // @ts-expect-error nor name another question's answer
  const pickedAnswer = ask<'head'>('frame', 3)
  // @ts-expect-error the arguments are the question's: head takes an id and a byte count
  const wrongArgs = ask('head', 'r1')
  // @ts-expect-error a command is not a question
  const notAQuestion = ask('select', null)

  const wrongHandler: QuestionHandlers = {
    ...handlers,
    // @ts-expect-error the worker's handler for `frame` must answer a frame (or null)
    frame: () => ({ value: true }),
  }
  // @ts-expect-error every question needs its handler
  const missingHandler: QuestionHandlers = { frame: handlers.frame }

  // the store's commands are the map's: a store is a command table
  const commands: StoreCommands = store
  // @ts-expect-error a command's arguments are the map's
  const wrongCommand: Command<'pin'> = { name: 'pin', args: ['r1'] }
  return [frame, found, wrongAnswer, pickedAnswer, wrongArgs, notAQuestion, wrongHandler, missingHandler, commands, wrongCommand]
}

describe('the store calls map', () => {
  it('names ten commands and seven questions', () => {
    // what the wire carries, by name (the compiler checks the rest, above)
    const commandNames: Record<CommandName, true> = {
      select: true, selectFrame: true, moveFrame: true, searchStep: true, moveRequest: true, scrubTo: true,
      pin: true, clear: true, dismissNote: true, clearNotes: true,
    }
    const questionNames: Record<QuestionName, true> = { frame: true, selectFrameAt: true, load: true, frames: true, head: true, tail: true, rebuilt: true }
    expect(Object.keys(commandNames)).toHaveLength(10)
    expect(Object.keys(questionNames)).toHaveLength(7)
    expect(typeof compilerSpecs).toBe('function')
  })
})
