// The image process when Brokernet runs from source (`bun src/server.ts`, the tests): the binary runs the same
// function as its hidden `image-worker` command (src/cli.ts).
import { runImageWorker } from './worker'

process.exit(await runImageWorker())
