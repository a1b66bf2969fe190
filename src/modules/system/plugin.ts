import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { systemApi } from './api'
import { systemPages } from './pages'

/** The installation's health and backups (issue 19), for the master admin. */
export const systemFeature = (ctx: AppContext) => ({ plugin: new Elysia({ name: 'system' }).use(systemApi(ctx)).use(systemPages(ctx)) })
