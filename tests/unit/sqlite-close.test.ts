// Closing the database while a transaction is under way (a match drain its timer began as the app stopped: a full
// run's moderation test met "database table is locked" from the closing checkpoint): the transaction ends and
// commits first (and one already waiting for its turn), then the close checkpoints; a transaction asked for after the
// close fails as on a closed database, instead of waiting for ever for a turn.
import { Database as SQLite } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../db/client'
import { sqliteSource } from '../../db/open'

const dir = mkdtempSync(join(tmpdir(), 'brokernet-close-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a transaction under way at the close commits, the close checkpoints, and later ones fail as closed', async () => {
  const path = join(dir, 'brokernet.db')
  const source = sqliteSource(openDatabase(path), { readThreads: 0 })
  const { db } = source
  await db.run('create table notes (id integer primary key, body text not null)')
  let inside!: () => void
  const begun = new Promise<void>((resolve) => (inside = resolve))
  // A transaction that waits for the event loop between its two statements, as one awaiting the network or a timer.
  const drain = db.tx(async (tx) => {
    await tx.run('insert into notes (body) values (?)', ['first'])
    inside()
    await Bun.sleep(50)
    await tx.run('insert into notes (body) values (?)', ['second'])
    return 'done'
  })
  await begun
  const waiting = db.tx((tx) => tx.run('insert into notes (body) values (?)', ['asked before the close, waiting its turn']))
  const closing = source.close()
  const after = db.tx((tx) => tx.run('insert into notes (body) values (?)', ['asked after the close']))
  expect(await drain).toBe('done')
  await closing // without waiting for the drain: SQLiteError "database table is locked" from the checkpoint
  // Asked before the close: its turn came before the close's. Asked after: refused.
  expect((await waiting).changes).toBe(1)
  await expect(after).rejects.toThrow('Database has closed')
  await expect(db.tx(async () => 'later')).rejects.toThrow('Database has closed')
  // The rows are in the file, folded back from the log by the close's checkpoint.
  const file = new SQLite(path, { readonly: true })
  try {
    expect(file.query<{ body: string }, []>('select body from notes order by id').all().map((r) => r.body)).toEqual(['first', 'second', 'asked before the close, waiting its turn'])
  } finally {
    file.close()
  }
})
