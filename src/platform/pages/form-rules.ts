import type { TObject } from '@sinclair/typebox'
import type { ObjectSchema } from '../../../islands/shared/form-rules'

/** A route's TypeBox schema as the plain JSON Schema an island receives in its props (TypeBox's symbols dropped). */
export const formRules = (schema: TObject): ObjectSchema => JSON.parse(JSON.stringify(schema)) as ObjectSchema
