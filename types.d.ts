// Files embedded by `bun build --compile` are imported as paths (`with { type: 'file' }`).
declare module '*.css' { const path: string; export default path }
declare module '*.js' { const path: string; export default path }
declare module '*.svg' { const path: string; export default path }
declare module '*.ico' { const path: string; export default path }
declare module '*.png' { const path: string; export default path }
declare module '*.sql' { const text: string; export default text }
declare module '*.gz' { const path: string; export default path }
declare module '*.br' { const path: string; export default path }
