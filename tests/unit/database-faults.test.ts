// Which driver errors are which of the application's (db/faults.ts), and the outage watch's rules (db/pg-outage.ts).
// The errors are shaped as bun:sqlite and postgres.js 3.4.9 raise them (their `code`, message and fields); the real
// ones are met in tests/api/database-faults.test.ts and tests/ops/pg-outage.test.ts.
import { describe, expect, test } from 'bun:test'
import { isConflict } from '../../db/dialect'
import { DatabaseUnavailable, postgresFault, sqliteFault, UniqueViolation } from '../../db/faults'
import { PgOutage } from '../../db/pg-outage'

const driverError = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message ?? 'driver error')), fields)

describe('SQLite', () => {
  test.each(['SQLITE_BUSY', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_LOCKED_SHAREDCACHE', 'SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC'])(
    '%s: the database is unavailable (503)',
    (code) => {
      const cause = driverError({ code, message: 'database is locked' })
      const fault = sqliteFault(cause)
      expect(fault).toBeInstanceOf(DatabaseUnavailable)
      expect((fault as DatabaseUnavailable).cause).toBe(cause)
      expect((fault as DatabaseUnavailable).reported).toBe(false)
    },
  )

  test.each(['SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_CONSTRAINT_NOTNULL', 'SQLITE_FULL', 'SQLITE_CORRUPT', 'SQLITE_ERROR', 'SQLITE_BUSYNESS'])('%s is left as it is', (code) => {
    const e = driverError({ code })
    expect(sqliteFault(e)).toBe(e)
  })

  test('a unique index and a primary key name their table and columns; an index on an expression, itself', () => {
    expect(sqliteFault(driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: cities.state_id, cities.name' }))).toMatchObject({
      table: 'cities',
      columns: ['state_id', 'name'],
      constraint: null,
      driverCode: 'SQLITE_CONSTRAINT_UNIQUE',
    })
    expect(sqliteFault(driverError({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY', message: 'UNIQUE constraint failed: app_secrets.name' }))).toMatchObject({
      table: 'app_secrets',
      columns: ['name'],
    })
    const expression = sqliteFault(driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE', message: "UNIQUE constraint failed: index 'saved_searches_user_name_unique'" }))
    expect(expression).toBeInstanceOf(UniqueViolation)
    expect(expression).toMatchObject({ table: null, columns: [], constraint: 'saved_searches_user_name_unique' })
    // Not a conflict to run again: SQLite's transactions of one process never race.
    expect(isConflict(expression)).toBe(false)
  })

  test('mapped once: an error already mapped passes through', () => {
    const once = sqliteFault(driverError({ code: 'SQLITE_BUSY' }))
    expect(sqliteFault(once)).toBe(once)
  })
})

describe('PostgreSQL', () => {
  test.each(['ECONNREFUSED', 'ECONNRESET', 'ENOENT', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', '57P01', '57P02', '57P03', '08006', '08001', '53300'])(
    '%s: the database is unavailable (503), reported by the outage watch',
    (code) => {
      const fault = postgresFault(driverError({ code }))
      expect(fault).toBeInstanceOf(DatabaseUnavailable)
      expect((fault as DatabaseUnavailable).reported).toBe(true)
    },
  )

  test.each(['23503', '23502', '22P02', '42P01', '40001', '57014', '53100'])('%s is left as it is', (code) => {
    const e = driverError({ code })
    expect(postgresFault(e)).toBe(e)
  })

  test('23505 names its table, index and columns (an expression as its column); it is still a conflict to run again', () => {
    const fault = postgresFault(
      driverError({
        code: '23505',
        message: 'duplicate key value violates unique constraint "saved_searches_user_name_unique"',
        table_name: 'saved_searches',
        constraint_name: 'saved_searches_user_name_unique',
        detail: 'Key (user_id, lower(name::text))=(3, night shift) already exists.',
      }),
    )
    expect(fault).toBeInstanceOf(UniqueViolation)
    expect(fault).toMatchObject({ table: 'saved_searches', constraint: 'saved_searches_user_name_unique', columns: ['user_id', 'name'], driverCode: '23505' })
    expect(isConflict(fault)).toBe(true)
    expect(postgresFault(driverError({ code: '23505', detail: 'Key (state_id, name)=(1, a)=(b) already exists.' }))).toMatchObject({ columns: ['state_id', 'name'] })
  })
})

describe('the outage watch', () => {
  const quiet = { log: () => {} }

  test('while the probe fails, a statement waits `waitMs` and is refused; the first answer lets the waiting through', async () => {
    let answers = false
    let probes = 0
    const outage = new PgOutage(
      async () => {
        probes++
        if (!answers) throw new Error('ECONNREFUSED')
      },
      { waitMs: 30, probeMs: 5, ...quiet },
    )
    expect(outage.away).toBe(false)
    await outage.ready() // nothing known against the server: at once
    outage.lost(new Error('ECONNREFUSED'))
    expect(outage.away).toBe(true)
    const refused = await outage.ready().then(() => null, (e: unknown) => e)
    expect(refused).toBeInstanceOf(DatabaseUnavailable)
    expect((refused as DatabaseUnavailable).reported).toBe(true)
    expect(probes).toBeGreaterThan(1)

    const patient = new PgOutage(
      async () => {
        if (!answers) throw new Error('ECONNREFUSED')
      },
      { waitMs: 60_000, probeMs: 5, ...quiet },
    )
    patient.lost(new Error('ECONNREFUSED'))
    const waiting = patient.ready()
    answers = true
    await waiting
    expect(patient.away).toBe(false)
    outage.close()
    patient.close()
  })

  test('an outage is logged once when it starts and once when it ends, however many statements fail meanwhile', async () => {
    const lines: string[] = []
    let answers = false
    const outage = new PgOutage(
      async () => {
        if (!answers) throw new Error('down')
      },
      { waitMs: 60_000, probeMs: 5, log: (line) => lines.push(line) },
    )
    for (let i = 0; i < 5; i++) outage.lost(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }))
    const waiting = outage.ready()
    answers = true
    await waiting
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain('ECONNREFUSED: connect ECONNREFUSED 10.0.0.5:5432')
    expect(lines[1]).toMatch(/answers again, after \d+\.\d s/)
  })
})
