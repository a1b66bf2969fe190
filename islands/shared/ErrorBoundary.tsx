import { Component, type ReactNode } from 'react'
import { ErrorFallback } from './ErrorFallback'

type State = { error: Error | null }

/** Wraps every island: a render error shows the fallback instead of a blank region. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null }

  static getDerivedStateFromError(error: Error): State {
    return { error }
  }

  componentDidCatch(error: Error) {
    console.error('[island] render error', error)
  }

  render() {
    if (this.state.error) return <ErrorFallback onRetry={() => this.setState({ error: null })} />
    return this.props.children
  }
}
