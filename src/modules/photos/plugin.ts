import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { createImagePool } from '../../platform/images'
import { photosApi } from './api'
import { photoFiles } from './files'
import { PhotoService } from './service'

/**
 * Listing photos (issue 34; docs/decisions/036-images.md): the image pool (processes of their own, started on the
 * first photo and ended at shutdown), the files, the API. What it keeps of a listing follows the listing's writes
 * through `parts`, which src/app.ts hands to the listings feature.
 */
export function photosFeature(ctx: AppContext) {
  const images = createImagePool(ctx.config, { onProblem: (message) => ctx.logger.error({ images: { problem: message } }, 'image process problem') })
  ctx.features.react({ name: 'photos: image processes end', runs: 'every', start: () => {}, stop: () => void images.close() })
  const service = new PhotoService(ctx, images, photoFiles(ctx.db, ctx.config, (message) => ctx.logger.error({ photos: { problem: message } }, 'photo storage problem')))
  return { service, parts: service.parts, plugin: new Elysia({ name: 'photos' }).use(photosApi(ctx, service)) }
}
