import { expect, test } from 'bun:test'
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

test('a success toast leaves after 2 s', async () => {
  for (const t of shown()) toast.dismiss(t.id)
  toast.success('saved')
  await Bun.sleep(1500)
  expect(shown()).toHaveLength(1)
  await Bun.sleep(700)
  expect(shown()).toHaveLength(0)
})
