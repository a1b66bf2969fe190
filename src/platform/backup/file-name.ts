// A backup archive's name, apart from the code that writes one: the server's schedule needs the names at start, the
// writer (tar, gzip, the PostgreSQL dump: node:stream and node:zlib) only when a backup runs in this process.

/** Backups Brokernet names itself, oldest first when sorted: the only files BACKUP_KEEP ever removes. */
export const BACKUP_FILE = /^brokernet-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.tar\.gz$/

export const backupFileName = (at = new Date()) => `brokernet-${at.toISOString().replaceAll(':', '-').replace('.', '-')}.tar.gz`
