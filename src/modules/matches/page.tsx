import type { CityExpiry } from '../../../islands/geo/ListingExpiry'
import type { CityTolerance } from '../../../islands/matches/ToleranceControl'
import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import type { Inbox } from './model'

export type MatchesPageProps = { user: ShellUser; initial: Inbox; rules: readonly string[]; tolerance: CityTolerance | null; expiry: CityExpiry | null }

/**
 * /dashboard/matches (issue 15): the MatchInbox island, its first page complete in the server's HTML. The matching
 * rules travel as props (they live in server code, ./rules.ts, which islands do not import).
 */
export function MatchesPage({ user, initial, rules, tolerance, expiry }: MatchesPageProps) {
  return (
    <DashboardLayout user={user} current="/dashboard/matches" section="Matches">
      <Island name="MatchInbox" props={{ initial, rules, tolerance, expiry, perPage: initial.per_page }} />
    </DashboardLayout>
  )
}
