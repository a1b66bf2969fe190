import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'

/** The notifications screen's page route (step 3 of issue 33 adds the screen). */
export const notificationsPages = (_ctx: AppContext) => new Elysia({ name: 'notifications-pages' })
