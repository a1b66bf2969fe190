// Files embedded by `bun build --compile` are imported as paths (`with { type: 'file' }`).
declare module '*.css' { const path: string; export default path }
declare module '*.js' { const path: string; export default path }
declare module '*.svg' { const path: string; export default path }
declare module '*.ico' { const path: string; export default path }
declare module '*.png' { const path: string; export default path }
declare module '*.sql' { const text: string; export default text }
declare module '*.gz' { const path: string; export default path }
// The image process's embedded native parts and WebAssembly (src/platform/images/).
declare module '*.node' { const path: string; export default path }
declare module '*.wasm' { const path: string; export default path }
declare module '@img/sharp-libvips-linux-x64/binary' { const path: string; export default path }
declare module 'libheif-js/libheif-wasm/libheif.js' { const factory: (options: object) => unknown; export default factory }
declare module '*.br' { const path: string; export default path }
