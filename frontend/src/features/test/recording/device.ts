import { pickMimeType } from '@/lib/mime'

// The microphone check of phase 0: secure context, browser support and
// permission, with a Spanish explanation of every failure.

export type DeviceProblem = 'insecure' | 'unsupported' | 'denied' | 'no-device' | 'busy' | 'error'

export type DeviceCheck = { ok: true; stream: MediaStream } | { ok: false; reason: DeviceProblem; message: string }

export const deviceMessages: Record<DeviceProblem, string> = {
  insecure: 'El micrófono solo funciona en una conexión segura (https).',
  unsupported: 'Este navegador no permite grabar audio. Use una versión reciente de Chrome, Edge, Firefox o Safari.',
  denied:
    'El navegador bloqueó el acceso al micrófono. Para permitirlo, toque el ícono del candado o de ajustes junto a la dirección de la página, ' +
    'abra «Permisos» o «Configuración del sitio», cambie «Micrófono» a «Permitir» y vuelva a cargar la página.',
  'no-device': 'No se encontró ningún micrófono. Conecte uno (o active el del equipo) y vuelva a intentarlo.',
  busy: 'El micrófono está ocupado por otra aplicación o no responde. Cierre las videollamadas o grabadoras abiertas y vuelva a intentarlo.',
  error: 'No se pudo acceder al micrófono. Vuelva a intentarlo.',
}

export const AUDIO_CONSTRAINTS: MediaTrackConstraints = { echoCancellation: true, noiseSuppression: true }

const fail = (reason: DeviceProblem): DeviceCheck => ({ ok: false, reason, message: deviceMessages[reason] })

// problemOf maps a getUserMedia rejection to a problem. Old Chrome used
// other names for the same errors.
export function problemOf(err: unknown): DeviceProblem {
  const name = err instanceof Error || (err && typeof err === 'object' && 'name' in err) ? String((err as { name: unknown }).name) : ''
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied'
    case 'NotFoundError':
    case 'DevicesNotFoundError':
      return 'no-device'
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'busy'
    default:
      return 'error'
  }
}

// checkDevice asks for the microphone. On success the caller owns the stream
// (reuse it for every phase; releaseStream when the attempt ends).
export async function checkDevice(): Promise<DeviceCheck> {
  if (typeof window !== 'undefined' && window.isSecureContext === false) return fail('insecure')
  const getUserMedia = navigator.mediaDevices?.getUserMedia
  if (typeof getUserMedia !== 'function' || pickMimeType() === null) return fail('unsupported')
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: AUDIO_CONSTRAINTS })
    return { ok: true, stream }
  } catch (err) {
    // A device that cannot honour the processing constraints still records.
    if (err && typeof err === 'object' && (err as { name?: string }).name === 'OverconstrainedError') {
      try {
        return { ok: true, stream: await navigator.mediaDevices.getUserMedia({ audio: true }) }
      } catch (again) {
        return fail(problemOf(again))
      }
    }
    return fail(problemOf(err))
  }
}

// releaseStream stops the microphone (the browser's recording indicator goes off).
export function releaseStream(stream: MediaStream | null | undefined) {
  stream?.getTracks().forEach((t) => t.stop())
}
