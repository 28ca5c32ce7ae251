import { Component, type ErrorInfo, type ReactNode } from 'react'
import { forgetReloadForNewVersion, isStaleChunkError, reloadOnceForNewVersion } from '@/lib/stale-chunk'
import { Button } from './ui/Button'

type Props = {
  children: ReactNode
  /** A new value clears a shown error (the route boundary passes the path). */
  resetKey?: string
  /** How to reload the page (tests pass a fake). */
  reload?: () => void
}

type State = { error: unknown; reloading: boolean; resetKey: string | undefined }

// ErrorBoundary catches what a page throws while rendering, so the app
// shows a way out instead of a blank page. A lazy chunk that no longer
// exists after a deploy reloads the page once (lib/stale-chunk); any other
// error, or the same again after that reload, shows a message with
// "Recargar". One wraps the whole app (main.tsx) and one the routes
// (RootLayout, cleared by a navigation, so the header stays usable).
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, reloading: false, resetKey: this.props.resetKey }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error }
  }

  // Going to another page leaves the failed one behind.
  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey === state.resetKey) return null
    return { resetKey: props.resetKey, error: state.reloading ? state.error : null }
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    if (isStaleChunkError(error) && reloadOnceForNewVersion(this.reload)) {
      this.setState({ reloading: true })
      return
    }
    console.error('The page failed to render', error, info.componentStack)
  }

  private reload = () => (this.props.reload ?? (() => window.location.reload()))()

  render() {
    if (this.state.error === null) return this.props.children
    if (this.state.reloading)
      return (
        <p role="status" className="mx-auto max-w-3xl px-4 py-10 text-slate-800">
          Hay una versión nueva de la aplicación. Recargando…
        </p>
      )
    return (
      <div role="alert" className="mx-auto max-w-3xl space-y-4 px-4 py-10 sm:px-6">
        <h2 className="text-2xl font-bold text-slate-900">No se pudo mostrar esta página</h2>
        <p className="text-slate-800">
          Ocurrió un error inesperado. Recargue la página para intentarlo de nuevo; lo que ya guardó en el servidor se conserva.
        </p>
        <Button
          onClick={() => {
            forgetReloadForNewVersion()
            this.reload()
          }}
        >
          Recargar
        </Button>
      </div>
    )
  }
}
