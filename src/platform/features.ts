import type { Role } from '../shared/constants'
import type { LiveTopic } from './http/live-topic'
import type { IslandElement } from './pages/island-element'

// Leaves only (no import of the context's users: http/auth, sse, page-auth import the context that holds this).
type Send = (event: string, data: unknown) => void
type StreamUser = { id: number; role: Role; cityId: number | null }
type PageUser = { id: number; role: Role; city_id: number | null }

/**
 * Work a feature runs besides answering requests: a timer, a sweep, a schedule. The server starts it (`runs`: in the
 * primary process only, once for all the processes sharing the database; or in every process) and stops it at
 * shutdown; tests start none and stop all (a write may arm a timer without a start, e.g. the expiry's). `stop` may
 * answer a promise: what it let go of is let go of when it settles (a thread's last messages, its database).
 */
export type Reaction = { name: string; runs: 'primary' | 'every'; start: () => void; stop: () => void | Promise<void> }

/**
 * One kind of event on the signed-in user's stream (GET /api/events, src/modules/events/): `follow` sends it to one
 * user's stream until `end` (and answers the release), or answers null when the user does not get it. `topic` is what
 * tells it of changes (counted in /metrics, its streams ended at shutdown); `description` is its line in the API
 * document.
 */
export type StreamEvent = {
  event: string
  description: string
  topic: Pick<LiveTopic<never>, 'listening' | 'close'>
  follow: (user: StreamUser, send: Send, end: () => void) => (() => void) | null
}

/** What a feature shows beside its item of the dashboard's navigation: an island and its first props, or nothing. */
export type Badge = (user: PageUser) => Promise<IslandElement | null>

/**
 * What the features of an app register with the platform besides their routes (docs/decisions/033-feature-plugins.md):
 * their reactions, the events of the user's stream, and the badges of the shell's navigation. The platform runs and
 * shows them without knowing whose they are: it imports no feature.
 */
export class Features {
  private readonly reactions: Reaction[] = []
  private started = false
  /** The user's stream's events, in the order they were registered (the order the app composes its features). */
  readonly events: StreamEvent[] = []
  /** By the address of the navigation item they sit beside (src/platform/pages/nav.ts). */
  readonly badges = new Map<string, Badge>()

  react(reaction: Reaction): void {
    if (this.started) throw new Error(`${reaction.name}: reactions are registered before the server starts them`)
    this.reactions.push(reaction)
  }

  /** A reaction whose start answers its stop (a digest's or a reminder's timer). */
  schedule(name: string, runs: Reaction['runs'], start: () => () => void): void {
    let stop: (() => void) | null = null
    this.react({
      name,
      runs,
      start: () => {
        stop = start()
      },
      stop: () => {
        stop?.()
        stop = null
      },
    })
  }

  stream(event: StreamEvent): void {
    if (this.events.some((e) => e.event === event.event)) throw new Error(`The event ${event.event} is registered twice`)
    this.events.push(event)
  }

  badge(href: string, badge: Badge): void {
    if (this.badges.has(href)) throw new Error(`A badge for ${href} is registered twice`)
    this.badges.set(href, badge)
  }

  /** The server's start: the primary runs every reaction, a worker process those that run in every process. */
  start({ primary }: { primary: boolean }): void {
    this.started = true
    for (const r of this.reactions) if (primary || r.runs === 'every') r.start()
  }

  /**
   * Shutdown: every open event stream ends (a graceful stop waits for requests in flight), then every reaction stops.
   * Each stops at once; the promise settles when those that let go of something (the push thread) are done, which
   * must come before the database closes: a thread still starting would open it afterwards, or in a folder gone.
   */
  async stop(): Promise<void> {
    for (const e of this.events) e.topic.close()
    await Promise.all(this.reactions.map((r) => r.stop()))
  }
}
