import pkg from '../../package.json'

/** The release version, from package.json (embedded in the binary at build time). */
export const VERSION: string = pkg.version
