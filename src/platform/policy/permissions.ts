// The permissions are pure data and pure functions, which islands read too (what a role may see): they live in
// src/shared/permissions.ts, where both the server and the islands may import them (issue 31: islands never import the
// platform). The server's policy names them here, beside scope.ts.
export * from '../../shared/permissions'
