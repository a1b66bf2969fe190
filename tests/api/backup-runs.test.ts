// Backup runs claimed by several processes at once (issue 29, finding 6): instances on one PostgreSQL share the
// schedule, and each computes the same due moment from the last scheduled run (src/platform/backup/service.ts), so
// their claims arrive together. One of them writes the period's backup; a Backup now clicked on several instances at
// once starts one run.
import { afterAll, describe, expect, test } from 'bun:test'
import { startRun } from '../../src/platform/backup/runs'
import { Backups } from '../../src/platform/backup/service'
import { createTestApp } from '../support/app'

const h = await createTestApp()
afterAll(() => h.close())

const HOUR = 3600_000
/** Rounds of claims: a race lost once in a while must show. */
const ROUNDS = 10
/** Claims made together, as that many processes would: how many got a run (the others got null: another has it). */
const together = async (claim: () => Promise<number | null>) => (await Promise.all(Array.from({ length: 6 }, claim))).filter((id) => id !== null).length
const finish = (at: number) => h.ctx.db.run("update backup_runs set status = 'OK', finished_at = ? where status = 'RUNNING'", [at])

describe('claiming a backup run', () => {
  test('each period of the schedule, claimed by six processes at once, is claimed once', async () => {
    const start = Date.now()
    const won: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      const now = start + i * HOUR
      won.push(await together(() => startRun(h.ctx.db, 'SCHEDULE', { unlessSince: now - 0.9 * HOUR, unlessRunning: true, now })))
      await finish(now + 1000)
    }
    expect(won).toEqual(Array(ROUNDS).fill(1))
    expect(await h.ctx.db.all("select id from backup_runs where trigger = 'SCHEDULE'")).toHaveLength(ROUNDS)
  })

  test('Backup now on six processes at once starts one run', async () => {
    const won: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      won.push(await together(() => startRun(h.ctx.db, 'MANUAL', { unlessRunning: true })))
      await finish(Date.now())
    }
    expect(won).toEqual(Array(ROUNDS).fill(1))
  })

  // Issue 37: a server stopping while a Backup now is being claimed went on to start the backup's child process after
  // close() had returned, and exited leaving it with the database open.
  test('a Backup now whose claim is on its way when the server stops is recorded as not done, and never starts', async () => {
    const started: string[] = []
    const backups = new Backups(h.ctx.db, h.config, h.ctx.logger, async (file) => {
      started.push(file)
      return { file, bytes: 0 }
    })
    const answer = backups.start('MANUAL', null)
    await backups.close()
    const { id } = (await answer) as { id: number }
    expect(started).toEqual([])
    expect(await h.ctx.db.get('select status, error from backup_runs where id = ?', [id])).toEqual({ status: 'FAILED', error: 'the server stopped before this backup began' })
  })
})
