// Listing photos' file stores (issue 34; docs/decisions/047-photo-storage.md).
export type { PhotoStore, S3Settings } from './types'
export { DiskPhotoStore } from './disk'
export { S3PhotoStore, S3_AWAY } from './s3'
