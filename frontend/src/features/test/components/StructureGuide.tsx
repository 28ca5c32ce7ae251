// StructureGuide is the outline of a good presentation (rubric F1, F2),
// visible during the presentation in Entrenamiento.
const parts = [
  ['Saludo', 'Salude al tribunal y preséntese.'],
  ['Introducción', 'Anuncie el caso y el orden de su exposición.'],
  ['Hechos', 'Solo los hechos relevantes, en orden.'],
  ['Problema jurídico', 'Formule la pregunta que el caso plantea.'],
  ['Normas aplicables', 'Constitución, ley y artículos exactos.'],
  ['Análisis', 'Subsunción de los hechos en las normas; doctrina y jurisprudencia.'],
  ['Conclusión y vía procesal', 'Su respuesta, la acción o el recurso y ante quién.'],
  ['Cierre', 'Agradezca al tribunal.'],
] as const

export function StructureGuide() {
  return (
    <aside aria-label="Guía de estructura" className="rounded-xl bg-brand-50 p-4 ring-1 ring-brand-200">
      <h3 className="font-bold text-brand-900">Guía de estructura</h3>
      <ol className="mt-2 space-y-1.5 text-sm">
        {parts.map(([name, hint], i) => (
          <li key={name} className="flex gap-2">
            <span aria-hidden="true" className="w-5 shrink-0 text-right font-bold text-brand-700">
              {i + 1}.
            </span>
            <span>
              <span className="font-semibold text-slate-900">{name}:</span> <span className="text-slate-800">{hint}</span>
            </span>
          </li>
        ))}
      </ol>
    </aside>
  )
}
