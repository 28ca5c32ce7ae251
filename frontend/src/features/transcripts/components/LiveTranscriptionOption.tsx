import { useId, useState } from 'react'
import { liveTranscriptionConsent, liveTranscriptionSupported, setLiveTranscriptionConsent } from '../live-recognizer'

// LiveTranscriptionOption lets the student turn the browser's speech
// recognition on or off before starting, saying plainly where audio may go.
export function LiveTranscriptionOption() {
  const [on, setOn] = useState(liveTranscriptionConsent)
  const id = useId()
  if (!liveTranscriptionSupported()) {
    return (
      <p className="text-sm text-slate-700">
        Este navegador no ofrece reconocimiento de voz: la práctica se grabará sin transcripción en vivo (puede escribirla después).
      </p>
    )
  }
  return (
    <div className="rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200">
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          className="mt-1 size-5"
          checked={on}
          aria-describedby={`${id}-d`}
          onChange={(e) => {
            setOn(e.target.checked)
            setLiveTranscriptionConsent(e.target.checked)
          }}
        />
        <div>
          <label htmlFor={id} className="font-semibold text-slate-900">
            Transcribir en vivo lo que diga
          </label>
          <p id={`${id}-d`} className="text-sm text-slate-700">
            Usa el reconocimiento de voz de su navegador, que puede enviar el audio a su proveedor (por ejemplo, Google o Microsoft). Con la
            transcripción verá qué bases legales citó, sus muletillas y su ritmo. Puede desactivarlo cuando quiera.
          </p>
        </div>
      </div>
    </div>
  )
}
