import { Database } from 'bun:sqlite'

// Whether a listing's text matches a search, decided by FTS5 itself: an in-memory search table with the tokenizer of
// the real indexes (migration 0002), one row at a time. The change feed records the five searchable fields as one string
// (migration 0011), so this is exact for searches of single words, where no phrase can span two fields.
let table: Database | null = null

function judge(): Database {
  if (!table) {
    table = new Database(':memory:')
    table.run("create virtual table t using fts5(entry_id, owner_name, locality, property_type, details, tokenize='unicode61 remove_diacritics 2')")
  }
  return table
}

/** The text the judge's one row holds now: a change is judged against many searches in a row, inserted once. */
let held: string | null = null

/** Does `text` (the feed's searchable text of a listing) match the FTS5 `query` (`ftsQuery`'s, text columns only)? */
export function textMatches(query: string, text: string): boolean {
  const db = judge()
  if (held !== text) {
    db.query('delete from t').run()
    db.query('insert into t (rowid, details) values (1, ?)').run(text)
    held = text
  }
  return db.query('select 1 from t where t match ?').get(query) !== null
}
