/**
 * Browsers send untouched optional inputs as empty strings and an unchosen file as an empty part: both mean
 * "not given". Used as the `transform` hook of multipart routes, before validation.
 */
export function dropEmptyFormFields({ body }: { body: unknown }): void {
  const fields = body as Record<string, unknown> | null
  for (const [key, value] of Object.entries(fields ?? {})) if (value === '' || (value instanceof Blob && value.size === 0)) delete fields![key]
}
