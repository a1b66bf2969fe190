/** The event islands/client.tsx sends on `window` once every island of the page is hydrated (lazy dialogs wait for it). */
export const ISLANDS_HYDRATED = 'brokernet:islands-hydrated'
