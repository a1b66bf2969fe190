import type { Queryable } from '../../db/sql'

// The installation's settings and secrets (tables `settings` and `app_secrets`): the platform's store of them. A
// feature names its setting or secret; the SQL stays here (issue 31).

/** A setting's JSON value and when it was last set; null when never set (its default applies). */
export const readSetting = (db: Queryable, name: string) =>
  db.get<{ value: string; updatedAt: number | string }>('select value, updated_at as "updatedAt" from settings where name = ?', [name])

/** Sets a setting's JSON value. */
export async function writeSetting(tx: Queryable, name: string, value: string, now: number): Promise<void> {
  await tx.run('insert into settings (name, value, updated_at) values (?, ?, ?) on conflict (name) do update set value = excluded.value, updated_at = excluded.updated_at', [
    name,
    value,
    now,
  ])
}

/**
 * An installation-wide secret, made by whichever process asks first: `made` is stored unless one is already there (a
 * second maker's insert does nothing), and both read the winner's.
 */
export async function sharedSecret(db: Queryable, name: string, made: string): Promise<string> {
  await db.run('insert into app_secrets (name, value) values (?, ?) on conflict (name) do nothing', [name, made])
  return (await db.get<{ value: string }>('select value from app_secrets where name = ?', [name]))!.value
}
