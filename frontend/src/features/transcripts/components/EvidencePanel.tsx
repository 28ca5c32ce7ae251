import type { ReactNode } from 'react'
import type { Phase, Citation, Evidence } from '@/types/api'
import { phaseName } from '@/lib/attempts'

const fmt = (n: number, d = 0) => n.toLocaleString('es-EC', { maximumFractionDigits: d, minimumFractionDigits: d })
const cite = (c: Citation) => `art. ${c.article} ${c.norm === 'Constitución' ? 'de la Constitución' : `del ${c.norm}`}`
const paceText = { lento: 'lento', adecuado: 'adecuado', rápido: 'rápido', '': 'sin datos' } as const

function Item({ title, explain, children }: { title: string; explain: string; children: ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4">
      <h3 className="font-semibold text-brand-800">{title}</h3>
      <p className="mt-0.5 text-sm text-slate-600">{explain}</p>
      <div className="mt-2 text-sm">{children}</div>
    </div>
  )
}

function Mark({ ok, yes, no }: { ok: boolean; yes: string; no: string }) {
  return (
    <span className={`inline-flex items-center gap-1 font-medium ${ok ? 'text-green-800' : 'text-red-800'}`}>
      <span aria-hidden="true">{ok ? '✓' : '✗'}</span> {ok ? yes : no}
    </span>
  )
}

// EvidencePanel shows the automatic measures of an attempt beside the
// rubric. Each measure says in one line what it is; none is a grade.
export function EvidencePanel({ evidence, phases }: { evidence: Evidence; phases: Phase[] }) {
  const o = evidence.overall
  const bases = o.bases
  const fillers = Object.entries(o.fillers).sort((a, b) => b[1] - a[1])
  // The overall rates are over the spoken time of the phases with a
  // transcript (the server's own basis for fillersPerMinute).
  const minutes = evidence.phases.reduce((ms, p) => ms + (p.hasTranscript ? p.spokenMs : 0), 0) / 60000
  const probable = bases?.probable ?? []
  const pauses = evidence.phases.reduce((n, p) => n + p.longPauses.length, 0)
  return (
    <section aria-labelledby="evidencia-titulo" className="space-y-4">
      <div>
        <h2 id="evidencia-titulo" className="text-xl font-bold text-brand-800">
          Evidencia automática
        </h2>
        <p className="text-sm text-slate-700">
          Medidas calculadas a partir de su voz y de su transcripción. Son evidencia para revisar junto a la rúbrica, no una calificación.
        </p>
      </div>
      {!evidence.hasTranscript && (
        <p role="note" className="rounded-lg border border-gold-400 bg-gold-300/20 p-3 text-sm">
          Esta práctica no tiene transcripción: se muestran solo las medidas que no la necesitan (tiempo y pausas). Puede activar la
          transcripción en vivo antes de su próxima práctica, o escribir la transcripción a mano.
        </p>
      )}
      <div className="grid gap-3 md:grid-cols-2">
        {evidence.hasTranscript && bases && (
          <Item title="Bases legales" explain="Compara los artículos que usted citó con las bases legales esperadas del caso.">
            <ul className="space-y-1">
              <li>
                <strong>Citadas y esperadas ({bases.matched.length}):</strong> {bases.matched.map(cite).join('; ') || '—'}
              </li>
              <li>
                <strong>Esperadas no citadas ({bases.missing.length}):</strong> {bases.missing.map(cite).join('; ') || '—'}
              </li>
              <li>
                <strong>Citadas no esperadas ({bases.unexpected.length}):</strong> {bases.unexpected.map(cite).join('; ') || '—'}
              </li>
              {probable.length > 0 && (
                <li className="rounded-md border border-dashed border-slate-400 bg-slate-50 p-2">
                  <strong>Posiblemente citadas, sin certeza ({probable.length}):</strong> {probable.map(cite).join('; ')}
                  <span className="block text-slate-600">
                    Dijo el número de estos artículos sin nombrar su norma: quizá quiso citarlos, pero no se cuentan como citados.
                  </span>
                </li>
              )}
              {o.unattributed.length > 0 && (
                <li>
                  <strong>Artículos sin norma:</strong> {o.unattributed.join(', ')} — diga siempre de qué cuerpo legal es cada artículo.
                </li>
              )}
            </ul>
          </Item>
        )}
        {evidence.hasTranscript && (
          <Item
            title="Puntos clave del caso"
            explain="Puntos esperados que se reconocen en sus palabras (coincidencia de términos, no de sentido)."
          >
            <ul className="space-y-1">
              {evidence.keyPoints.map((k, i) => (
                <li key={i}>
                  <Mark ok={k.covered} yes="" no="" /> {k.text}
                </li>
              ))}
            </ul>
          </Item>
        )}
        {evidence.hasTranscript && (
          <Item title="Protocolo" explain="Saludo formal al tribunal al comenzar y cierre formal al terminar.">
            <p>
              <Mark ok={evidence.greeting} yes="Saludó al tribunal" no="No se detectó el saludo" />
            </p>
            <p>
              <Mark ok={evidence.closing} yes="Cerró formalmente" no="No se detectó un cierre formal" />
            </p>
          </Item>
        )}
        {evidence.hasTranscript && (
          <Item
            title="Estructura"
            explain="Señales de las partes de la exposición (introducción, hechos, problema, normas, análisis, conclusión)."
          >
            <p>{o.structureMarkers.length ? o.structureMarkers.join(', ') : 'No se detectaron señales de estructura.'}</p>
          </Item>
        )}
        {evidence.hasTranscript && (
          <Item title="Ritmo" explain="Palabras por minuto; el rango recomendado es de 100 a 165.">
            <p>
              {fmt(o.wordsPerMinute)} palabras por minuto ({paceText[o.paceBand]}); {fmt(o.words)} palabras en total.
            </p>
          </Item>
        )}
        {evidence.hasTranscript && (
          <Item title="Muletillas" explain="Palabras de relleno por minuto hablado, por tipo (eh, este, o sea, bueno, ¿no?, pues…).">
            {fillers.length === 0 ? (
              <p>No se detectaron muletillas.</p>
            ) : (
              <>
                {minutes > 0 && <p>{fmt(o.fillersPerMinute, 1)} por minuto en total.</p>}
                <ul className="mt-1 space-y-0.5">
                  {fillers.map(([w, n]) => (
                    <li key={w}>
                      «{w}»:{' '}
                      {minutes > 0
                        ? `${fmt(n / minutes, 1)} por minuto (${n} ${n === 1 ? 'vez' : 'veces'})`
                        : `${n} ${n === 1 ? 'vez' : 'veces'}`}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </Item>
        )}
        <Item title="Pausas largas" explain="Silencios de más de 3 segundos, medidos en el audio (no necesitan transcripción).">
          {pauses === 0 ? (
            <p>No hubo pausas largas.</p>
          ) : (
            <ul>
              {evidence.phases
                .filter((p) => p.longPauses.length)
                .map((p) => (
                  <li key={p.phase}>
                    {phaseName(phases[p.phase] ?? { kind: 'presentation', index: 0 })}: {p.longPauses.length}
                  </li>
                ))}
            </ul>
          )}
        </Item>
      </div>
    </section>
  )
}
