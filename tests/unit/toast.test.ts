import { expect, jest, test } from 'bun:test'
import { browserStore } from '../../islands/shared/store'
import { toast, toastsAtom } from '../../islands/shared/toast'

const shown = () => browserStore.get(toastsAtom)

test('at most 20 toasts, the newest kept', () => {
  for (let i = 1; i <= 25; i++) toast.error(`error ${i}`)
  expect(shown()).toHaveLength(20)
  expect(shown().at(-1)!.message).toBe('error 25')
  expect(shown()[0]!.message).toBe('error 6')
  for (const t of shown()) toast.dismiss(t.id)
  expect(shown()).toHaveLength(0)
})

test('a loading toast stays until it is replaced by its outcome', async () => {
  const id = toast.loading('Deleting listing...')
  expect(shown()).toEqual([{ id, kind: 'loading', message: 'Deleting listing...' }])
  toast.success('Listing deleted successfully', id)
  expect(shown()).toEqual([{ id, kind: 'success', message: 'Listing deleted successfully' }])
})

// On a fake clock: the 2 s are the toast's own timer's, not the machine's (issue 37).
test('a success toast leaves after 2 s', () => {
  for (const t of shown()) toast.dismiss(t.id)
  jest.useFakeTimers()
  try {
    toast.success('saved')
    jest.advanceTimersByTime(1999)
    expect(shown()).toHaveLength(1)
    jest.advanceTimersByTime(1)
    expect(shown()).toHaveLength(0)
  } finally {
    jest.useRealTimers()
  }
})

// Issue 32: "Not interested" is undoable. On a fake clock, as above.
test('an undoable toast offers Undo for 10 s (its button runs the undo: Toaster.tsx); untouched, it leaves at 10 s', () => {
  for (const t of shown()) toast.dismiss(t.id)
  jest.useFakeTimers()
  try {
    let undone = 0
    toast.undoable('Match dismissed', () => undone++)
    const [t] = shown()
    expect(t!.action!.label).toBe('Undo')
    jest.advanceTimersByTime(9_999)
    expect(shown()).toHaveLength(1)
    jest.advanceTimersByTime(1)
    expect(shown()).toHaveLength(0)
    expect(undone).toBe(0)
    toast.undoable('Match dismissed', () => undone++)
    shown()[0]!.action!.run()
    expect(undone).toBe(1)
  } finally {
    jest.useRealTimers()
  }
})
