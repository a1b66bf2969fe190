import { docsRoutes } from './api'

/** The API's OpenAPI document and its interactive page (/swagger), made of every route's own definition. */
export const docsFeature = () => ({ plugin: docsRoutes() })
