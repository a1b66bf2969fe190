import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import type { DuplicatesAnswer } from '../../src/modules/listings/model'
import { postedAgo } from '../../src/shared/dates'
import { sendJson } from '../shared/query'

type Duplicates = DuplicatesAnswer['duplicates']
type Draft = Record<string, unknown>

/**
 * Duplicate control in a create form (issue 17): before a new listing is posted, what it would repeat is asked of
 * POST /api/listings/duplicates. Nothing: it is posted. Something: the form shows it (`found`), and the next submit
 * posts it confirmed (`confirm_duplicate`). Any edit of the form asks again (`reset`). The check only advises: if it
 * fails the listing is posted, and the server still refuses a copy of one's own.
 */
export function useDuplicateCheck() {
  const [found, setFound] = useState<Duplicates | null>(null)
  const check = useMutation({
    mutationFn: (draft: Draft) => sendJson<DuplicatesAnswer>('/api/listings/duplicates', 'POST', draft),
    retry: false,
  })
  return {
    /** What the draft repeats, once shown; null before the check or when it found nothing. */
    found: found?.length ? found : null,
    checking: check.isPending,
    reset: () => setFound(null),
    submit<T extends Draft>(body: T, post: (body: T) => void) {
      if (found?.length) return post({ ...body, confirm_duplicate: true })
      check.mutate(body, { onSuccess: ({ duplicates }) => (duplicates.length ? setFound(duplicates) : post(body)), onError: () => post(body) })
    },
  }
}

/** "This looks like REQ-MUM-000123, posted by you 3 days ago": what the new listing repeats, before it is posted. */
export function DuplicateWarning({ duplicates }: { duplicates: Duplicates }) {
  const own = duplicates.some((d) => d.own)
  return (
    <div role="alert" className="alert alert-warning block text-sm" data-duplicates>
      <p className="font-semibold">This looks like {duplicates.length === 1 ? 'a listing' : 'listings'} already posted:</p>
      <ul className="mt-1 list-disc pl-5">
        {duplicates.slice(0, 3).map((d) => (
          <li key={d.listing.id}>
            {d.listing.entry_id}, posted by {d.own ? 'you' : d.listing.owner_name} {postedAgo(d.listing.created_at)}
          </li>
        ))}
      </ul>
      <p className="mt-1">{own ? 'Post Anyway adds it as a second listing; Cancel keeps only the first.' : 'Co-listing is allowed: Post Anyway adds yours.'}</p>
    </div>
  )
}
