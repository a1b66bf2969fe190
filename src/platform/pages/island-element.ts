import type { ComponentProps } from 'react'
import type { IslandName, islands } from '../../../islands/registry'

/** An island to render by name with its props, checked against the island's own (src/platform/pages/island.tsx renders it). */
export type IslandElement = { [N in IslandName]: { name: N; props: ComponentProps<(typeof islands)[N]> } }[IslandName]
