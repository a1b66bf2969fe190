import { ON_POSTGRES } from './app'
import { sharedCluster, startCluster, type Cluster } from './postgres'

/**
 * A PostgreSQL cluster for tests that run on PostgreSQL whichever backend their run tests (issue 37: no test skips
 * itself on SQLite). The run's shared one when there is one (`bun run test`, BROKERNET_TEST_DATABASE=postgres); else,
 * for a file run by hand on SQLite, one of its own, started at the first `get()` and stopped by `release()`, so that it
 * leaves no cluster behind.
 */
export function clusterOfTests() {
  let own: Promise<Cluster> | null = null
  return {
    get: (): Promise<Cluster> => (process.env.BROKERNET_SHARED_PG_URL || ON_POSTGRES ? sharedCluster() : (own ??= startCluster())),
    release: async () => {
      const started = own
      own = null
      await (await started)?.stop()
    },
  }
}
