import { useId } from 'react'
import { useSearchParams } from 'react-router-dom'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { PageSpinner } from '@/components/ui/Spinner'
import { useDegrees } from '@/lib/get-degrees'
import { useDegreeConfig } from '../api/get-degree-config'
import { BlueprintForm } from '../components/BlueprintForm'
import { DifficultyMixForm } from '../components/DifficultyMixForm'
import { RubricEditor } from '../components/RubricEditor'
import { inputClass } from '@/components/ui/input'

// ConfigPage is /admin/configuracion: per degree, the phase timings and
// default mode (blueprint), the Simulacro's difficulty mix and the rubric.
export function ConfigPage() {
  const degrees = useDegrees()
  const [sp, setSp] = useSearchParams()
  const base = useId()
  const degree = sp.get('carrera') || degrees.data?.[0]?.id || ''
  const config = useDegreeConfig(degree)

  if (degrees.isPending) return <PageSpinner />
  if (degrees.isError) return <Notice tone="error">No se pudieron cargar las carreras.</Notice>
  if (degrees.data.length === 0) return <Notice>No hay carreras registradas.</Notice>
  return (
    <div className="space-y-6">
      <Card title="Configuración por carrera">
        <p className="mb-4 text-slate-700">
          Los tiempos de cada fase, la dificultad del simulacro y la rúbrica se definen por carrera y valen para todos los grupos de esa
          carrera.
        </p>
        <label htmlFor={`${base}-degree`} className="block font-medium text-slate-800">
          Carrera
        </label>
        <select
          id={`${base}-degree`}
          value={degree}
          onChange={(e) => setSp({ carrera: e.target.value }, { replace: true })}
          className={`${inputClass} max-w-sm`}
        >
          {degrees.data.map((d) => (
            <option key={d.id} value={d.id}>
              {d.nombre}
            </option>
          ))}
        </select>
      </Card>
      {config.isPending && <PageSpinner />}
      {config.isError && <Notice tone="error">No se pudo cargar la configuración de la carrera.</Notice>}
      {config.data && (
        <>
          <Card title={`Tiempos y modo · ${config.data.degree.nombre}`}>
            <BlueprintForm key={config.data.degree.id} config={config.data} />
          </Card>
          <Card title={`Dificultad del simulacro · ${config.data.degree.nombre}`}>
            <DifficultyMixForm
              key={`${config.data.degree.id}-${JSON.stringify(config.data.blueprint.difficultyMix)}`}
              config={config.data}
            />
          </Card>
          <Card title={`Rúbrica · ${config.data.degree.nombre}`}>
            <RubricEditor
              key={`${config.data.degree.id}-${config.data.rubric.version}`}
              degreeId={config.data.degree.id}
              rubric={config.data.rubric}
            />
          </Card>
        </>
      )}
    </div>
  )
}
