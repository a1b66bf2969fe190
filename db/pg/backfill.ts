import derived from './derived.sql' with { type: 'text' }
import search from './search.sql' with { type: 'text' }
import monthCounts from './month_counts.sql' with { type: 'text' }
import budgetCounts from './budget_counts.sql' with { type: 'text' }

/**
 * The backfill statements of PostgreSQL's derived data (db/pg/derived.sql, db/pg/search.sql, db/pg/month_counts.sql,
 * db/pg/budget_counts.sql), word for word as the
 * migrations run them: what the triggers would have kept for rows already in the tables. For a database whose base
 * tables were bulk-loaded with triggers off (scripts/bench-pg.ts loads the bench's million listings so): the kept
 * counts, the inbox's live flags and the search vectors, computed from the rows as they are. The statements are the
 * files' INSERT and UPDATE statements, in file order; the CREATE statements (functions, triggers, the search index)
 * belong to the migrations alone.
 */
export function backfillStatements(): string[] {
  return [derived, search, monthCounts, budgetCounts].flatMap((file) =>
    file
      .split('--> statement-breakpoint')
      .map((s) =>
        s
          .split('\n')
          .filter((line) => !line.trim().startsWith('--'))
          .join('\n')
          .trim(),
      )
      .filter((s) => /^(insert|update)\s/i.test(s)),
  )
}
