// Every island by name. The server renders them by name (src/pages/island.tsx); the client hydrates them by name.
import LoginForm from './auth/LoginForm'
import GeoTree from './geo/GeoTree'
import Toaster from './shared/Toaster'

export const islands = { LoginForm, GeoTree, Toaster }
export type IslandName = keyof typeof islands
