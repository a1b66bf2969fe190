import { createContext } from 'react'

/**
 * True when the page was asked for by a phone (src/platform/http/phone.ts): wide layouts that CSS would hide on a
 * narrow screen (the listing table beside its cards) are then not rendered at all, on the server or in hydration, until
 * the screen turns out to be wide. Set at each island's root, on the server from the request and in the browser from
 * `<html data-layout="phone">`, so both render the same.
 */
export const PhoneLayout = createContext(false)
