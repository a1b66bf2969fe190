import { PAGE_SIZES } from '../../shared/constants'
import { fieldError } from '../errors'

/**
 * A page of a list: `per_page` is one of SPEC's page sizes (10, 25, 50, 100; the schema only bounds it), `page` from 1.
 * One rule for the listings and the matches.
 */
export function paging(q: { page?: number; per_page?: number }, perPageDefault: number) {
  const perPage = q.per_page ?? perPageDefault
  if (!(PAGE_SIZES as readonly number[]).includes(perPage)) throw fieldError('per_page', 'per_page must be 10, 25, 50 or 100', 'query')
  const page = q.page ?? 1
  return { page, perPage, offset: (page - 1) * perPage }
}
