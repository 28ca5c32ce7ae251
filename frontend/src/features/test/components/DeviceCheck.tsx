import { useId } from 'react'
import { Button } from '@/components/ui/Button'
import { Notice } from '@/components/ui/Notice'
import { LevelMeter } from '../recording/LevelMeter'
import { useAudioLevel } from '../recording/level'
import { useMicrophone } from '../lib/microphone'

// DeviceCheck is phase 0: secure context, browser support, microphone
// permission and a live level meter, with a Spanish explanation of anything
// that fails. The stream it opens is reused by the attempt.
export function DeviceCheck({ onReady, starting, onBack }: { onReady: () => void; starting: boolean; onBack: () => void }) {
  const mic = useMicrophone()
  const level = useAudioLevel(mic.stream)
  const titleId = useId()
  const insecure = typeof window !== 'undefined' && window.isSecureContext === false
  const failed = mic.state.status === 'failed' ? mic.state : null

  return (
    <section aria-labelledby={titleId} className="space-y-5">
      <h2 id={titleId} className="text-xl font-bold text-brand-800">
        Comprobación del micrófono
      </h2>
      <p className="text-slate-700">
        Sus respuestas se graban. Antes de sortear el caso, permita el acceso al micrófono y compruebe que el indicador se mueve cuando
        habla. La grabación se guarda en este equipo y se envía al servidor mientras habla.
      </p>
      {insecure && <Notice tone="error">El micrófono solo funciona en una conexión segura (https).</Notice>}
      {failed && (
        <Notice tone="error">
          <p className="font-semibold">No se pudo usar el micrófono.</p>
          <p className="mt-1">{failed.message}</p>
        </Notice>
      )}
      {!mic.stream && (
        <Button onClick={() => void mic.request()} disabled={mic.state.status === 'asking' || insecure}>
          {mic.state.status === 'asking' ? 'Esperando permiso…' : failed ? 'Reintentar' : 'Probar micrófono'}
        </Button>
      )}
      {mic.stream && (
        <div className="space-y-4">
          <Notice tone="success">Micrófono listo. Diga algunas palabras: la barra debe moverse.</Notice>
          <div className="max-w-md">
            <p className="mb-1 text-sm font-semibold text-slate-800" aria-hidden="true">
              Nivel del micrófono
            </p>
            <LevelMeter level={level} />
          </div>
          <p className="text-sm text-slate-700">
            Si la barra no se mueve, revise que el micrófono correcto esté seleccionado en su equipo.
          </p>
        </div>
      )}
      <div className="flex flex-wrap gap-3">
        <Button variant="outline" onClick={onBack} disabled={starting}>
          Volver
        </Button>
        <Button onClick={onReady} disabled={!mic.stream || starting}>
          {starting ? 'Sorteando caso…' : 'Sortear caso y comenzar'}
        </Button>
      </div>
    </section>
  )
}
