// Patterns shared by server schemas and browser form rules (JSON Schema `pattern` strings).
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$'
