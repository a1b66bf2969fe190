import { defineConfig } from 'drizzle-kit'

// PostgreSQL's migrations (issue 16): `bun run db:generate:pg` after a change to db/pg/schema.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/pg/schema.ts',
  out: './db/pg/migrations',
})
