import type { Queryable } from '../../../db/sql'

// What the features that raise push alerts need to know of them (issue 33): the kinds, and the one call. Imports
// nothing of the notifications feature, so the features it judges (listings, users) can take it without a loop.

/** The kinds of push alert, each a switch in the user's settings. */
export const PUSH_KINDS = ['match', 'saved_search', 'expiring', 'registration', 'deal'] as const
export type PushKind = (typeof PUSH_KINDS)[number]

/**
 * What a push alert tells of, judged again when it leaves (scope at send time): a listing the recipient must still
 * see, a registration still pending in their scope, or a co-broke request or deal (issue 35) they are still a party to.
 */
export type PushSubject = { listing: number } | { registration: number } | { cobroke_request: number } | { deal: number }

/** One alert to one user: what the notification shows, the screen it opens, and what it is about. */
export type PushAlert = { userId: number; title: string; body: string; url: string; subject: PushSubject }

/**
 * Raises alerts of one kind inside the caller's transaction (they exist exactly when the change they tell of does):
 * each goes to the user's devices now, is held to their quiet hours' end, or is dropped when they turned the kind off.
 * Answers the users it reaches (sent or held): a caller with another way to tell the rest (mail) uses it for them.
 */
export type RaisePush = (tx: Queryable, kind: PushKind, alerts: readonly PushAlert[]) => Promise<ReadonlySet<number>>
