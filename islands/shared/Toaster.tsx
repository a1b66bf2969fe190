import { useAtomValue } from './atoms'
import { dismissToast, toastsAtom, type ToastKind } from './toast'

const STYLE: Record<ToastKind, string> = {
  success: 'alert-success',
  error: 'alert-error',
  info: 'alert-info',
  blank: '',
  loading: '',
}

/** The toast host: top-right, at most 400 px wide (SPEC section 9). Rendered once per page that has islands. */
export default function Toaster() {
  const toasts = useAtomValue(toastsAtom)
  return (
    <div className="toast toast-top toast-end z-[100] max-w-[400px] w-[calc(100%-2rem)] p-0 top-4 right-4" aria-live="polite" role="status">
      {toasts.map((t) => (
        <div key={t.id} className={`alert ${STYLE[t.kind]} shadow-lg flex justify-between whitespace-normal`} data-toast={t.kind}>
          <span className="flex items-center gap-2">
            {t.kind === 'loading' && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {t.message}
          </span>
          <span className="flex items-center gap-1">
            {t.action && (
              <button
                type="button"
                className="btn btn-sm"
                data-toast-action
                onClick={() => {
                  dismissToast(t.id)
                  t.action!.run()
                }}
              >
                {t.action.label}
              </button>
            )}
            <button type="button" className="btn btn-ghost btn-xs" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>
              ✕
            </button>
          </span>
        </div>
      ))}
    </div>
  )
}
