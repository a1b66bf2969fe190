// Account field messages of SPEC section 5 "Register" / "Reset password", shared by the server's schemas and the
// islands' extra checks (confirmation, country, state), so both say the same words. No Elysia here: islands import it.

export const PASSWORD_RULES = [
  { pattern: '[A-Z]', message: 'Password must contain at least one uppercase letter' },
  { pattern: '[a-z]', message: 'Password must contain at least one lowercase letter' },
  { pattern: '[0-9]', message: 'Password must contain at least one number' },
  { pattern: '[^A-Za-z0-9]', message: 'Password must contain at least one special character' },
] as const

export const ACCOUNT_MESSAGES = {
  email: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordMin: 'Password must be at least 8 characters',
  passwordMax: 'Password must be at most 128 characters',
  confirmMismatch: "Passwords don't match",
  fullNameMin: 'Full name must be at least 2 characters',
  phoneMin: 'Please enter a valid phone number (at least 10 digits)',
  country: 'Please select a country',
  state: 'Please select a state',
  city: 'Please select a city',
  fileType: 'Please upload a valid image (JPEG, PNG) or PDF file',
  fileSize: 'File size must be less than 5MB',
} as const

/** The server's `detail` texts at registration and the sentences the form shows for them (SPEC section 8 "Registration"). */
export const REGISTRATION_ERRORS: Record<string, string> = {
  'email already registered': 'This email address is already registered. Please use a different email or try logging in.',
  'id card number already registered': 'This ID card number is already registered. Please check your ID card number or contact support.',
  'invalid city': 'Please select a valid city from the dropdown.',
  'file too large': 'The ID card file is too large. Please upload a file smaller than 5MB.',
  'file type not allowed': 'Invalid file type. Please upload a JPG, PNG, or PDF file.',
}

/** Accepted identity documents: what the picker offers; the server decides by the bytes, not these. */
export const ID_CARD_ACCEPT = 'image/jpeg,image/png,application/pdf,.jpg,.jpeg,.png,.pdf'
