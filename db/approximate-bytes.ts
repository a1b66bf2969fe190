/**
 * About how many bytes a plain value (numbers, strings, arrays and objects of them: what the counts cache keeps) holds
 * in JavaScriptCore's heap: 8 per number or array slot, a string's characters, a few dozen per object and array. An
 * estimate for a cache's weight limit (docs/decisions/062-memory.md), not a measurement: close enough to bound a cache
 * whose entries range from one number to a window of 1,024 ids.
 */
export function approximateBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return 24 + value.length
  if (value === null || typeof value !== 'object' || depth > 4) return 8
  if (Array.isArray(value)) {
    let bytes = 16 + 8 * value.length
    for (const item of value) if (item !== null && typeof item === 'object') bytes += approximateBytes(item, depth + 1)
    else if (typeof item === 'string') bytes += 24 + item.length
    return bytes
  }
  let bytes = 32
  for (const key in value) bytes += 16 + approximateBytes((value as Record<string, unknown>)[key], depth + 1)
  return bytes
}
