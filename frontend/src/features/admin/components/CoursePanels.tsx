import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { useDegrees } from '@/lib/get-degrees'
import { ApiError } from '@/lib/api-client'
import type { UpdateFromCourseDetails } from '@/types/api'
import { closeDialog, showError, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { useLineItems } from '../api/get-line-items'
import { useLinkColumn } from '../api/link-column'
import { useLoadGroupFromCourse } from '../api/load-group-from-course'
import { useUpdateGroupFromCourse } from '../api/update-group-from-course'
import type { LeftStudent, LtiCourse, LtiCourses, Omitted } from '../api/lti-types'
import { loadGroupWithDialogs } from '../lib/group-load-dialogs'
import { inputClass } from '@/components/ui/input'

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase()
    .trim()

function courseName(c: LtiCourse) {
  return c.label && c.label !== c.title ? `${c.title} (${c.label})` : c.title
}

// CourseLoadCard is "Cargar grupo desde el curso": for a tutor who opened
// the simulator from a course as its teacher and has no active group. The
// course's active students become the group, with the rules and dialogs of
// loading a file (docs/lti.md).
export function CourseLoadCard({ courses }: { courses: LtiCourse[] }) {
  const degrees = useDegrees()
  const [courseId, setCourseId] = useState(courses[0]?.id ?? '')
  const course = courses.find((c) => c.id === courseId) ?? courses[0]
  const [degree, setDegree] = useState('')
  const [omitted, setOmitted] = useState<Omitted[]>([])
  const load = useLoadGroupFromCourse()
  const ids = { course: useId(), degree: useId() }
  const list = degrees.data ?? []
  // The course's own degree (its custom parameter "carrera") is chosen
  // unless the tutor picks another.
  const suggested = list.find((d) => course && fold(d.nombre) === fold(course.degree))?.nombre ?? list[0]?.nombre ?? ''
  const chosen = degree || suggested

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!course) return
    if (!course.roster) return void showError('Error', 'La plataforma no ofrece la lista de participantes de este curso.')
    await loadGroupWithDialogs(
      () => load.mutateAsync({ courseId: course.id, degree: chosen }),
      (res) => setOmitted(res.omitted),
    )
  }

  return (
    <Card title="Cargar grupo desde el curso">
      <p className="mb-4 text-slate-700">
        Abrió el simulador desde un curso del campus virtual. Puede formar el grupo con los estudiantes del curso, sin archivo.
      </p>
      <form onSubmit={(e) => void submit(e)} className="space-y-4">
        {courses.length > 1 ? (
          <div>
            <label htmlFor={ids.course} className="block font-medium text-slate-800">
              Curso
            </label>
            <select id={ids.course} className={inputClass} value={course?.id} onChange={(e) => setCourseId(e.target.value)}>
              {courses.map((c) => (
                <option key={c.id} value={c.id}>
                  {courseName(c)}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p>
            <span className="text-slate-600">Curso: </span>
            <strong>{course && courseName(course)}</strong>
          </p>
        )}
        <div>
          <label htmlFor={ids.degree} className="block font-medium text-slate-800">
            Carrera del grupo
          </label>
          <select id={ids.degree} className={inputClass} value={chosen} onChange={(e) => setDegree(e.target.value)}>
            {list.map((d) => (
              <option key={d.id} value={d.nombre}>
                {d.nombre}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" disabled={load.isPending || !course}>
          Cargar grupo desde el curso
        </Button>
      </form>
      <OmittedList omitted={omitted} />
    </Card>
  )
}

function OmittedList({ omitted }: { omitted: Omitted[] }) {
  if (omitted.length === 0) return null
  return (
    <div className="mt-4">
      <Notice tone="warn">
        <p className="font-semibold">No se agregaron {omitted.length} estudiante(s) del curso:</p>
        <ul className="mt-2 list-disc pl-5">
          {omitted.map((o, i) => (
            <li key={`${o.email}-${i}`}>
              {o.name || o.email || 'Sin nombre'}: {o.reason}
            </li>
          ))}
        </ul>
      </Notice>
    </div>
  )
}

function LeftList({ left }: { left: LeftStudent[] }) {
  if (left.length === 0) return null
  return (
    <div className="mt-4">
      <Notice tone="info">
        <p className="font-semibold">Ya no están en el curso ({left.length}); siguen en el grupo:</p>
        <ul className="mt-2 list-disc pl-5">
          {left.map((s) => (
            <li key={s.email}>{s.name ? `${s.name} (${s.email})` : s.email}</li>
          ))}
        </ul>
      </Notice>
    </div>
  )
}

// GroupCourseCard is the course of the active group: "Actualizar desde el
// curso" adds the students who joined since (with the dialogs of adding
// students) and lists those who left, and the gradebook column the
// Simulacro grades go to.
export function GroupCourseCard({ info }: { info: NonNullable<LtiCourses['group']> }) {
  const update = useUpdateGroupFromCourse()
  const [left, setLeft] = useState<LeftStudent[]>([])
  const [omitted, setOmitted] = useState<Omitted[]>([])

  const onUpdate = async () => {
    void showLoading('Agregando estudiantes')
    try {
      const res = await update.mutateAsync()
      setLeft(res.left)
      setOmitted(res.omitted)
      await showSuccess(`${res.added} Estudiante(s) agregado(s)`, 'Los estudiantes se han agregado correctamente')
    } catch (err) {
      if (err instanceof ApiError && err.code === 'students_already_in_group') {
        const d = (err.details ?? {}) as Partial<UpdateFromCourseDetails>
        setLeft(d.left ?? [])
        setOmitted(d.omitted ?? [])
        return showError('Error', 'Los estudiantes ya están en el grupo')
      }
      await closeDialog()
      await showApiError(err)
    }
  }

  return (
    <Card title="Curso del grupo">
      <p>
        <span className="text-slate-600">Curso: </span>
        <strong>{courseName(info.course)}</strong>
      </p>
      <p className="mt-2 text-slate-700">Agregue al grupo a los estudiantes que se matricularon en el curso después de cargarlo.</p>
      <p className="mt-4">
        <Button onClick={() => void onUpdate()} disabled={update.isPending}>
          Actualizar desde el curso
        </Button>
      </p>
      <LeftList left={left} />
      <OmittedList omitted={omitted} />
      {info.course.grades && <ColumnSection column={info.column} />}
    </Card>
  )
}

function ColumnSection({ column }: { column: NonNullable<LtiCourses['group']>['column'] }) {
  const [choosing, setChoosing] = useState(false)
  const [picked, setPicked] = useState('')
  const items = useLineItems(choosing)
  const link = useLinkColumn()
  const id = useId()

  const linkTo = async (target?: string) => {
    void showLoading(target ? 'Vinculando columna' : 'Creando columna')
    try {
      const res = await link.mutateAsync(target)
      setChoosing(false)
      await showSuccess('Columna vinculada', `Las calificaciones de los simulacros se enviarán a «${res.column.label}».`)
    } catch (err) {
      await closeDialog()
      await showApiError(err)
    }
  }

  return (
    <div className="mt-6 border-t border-slate-200 pt-4">
      <h3 className="font-bold text-brand-800">Calificaciones en el curso</h3>
      {column ? (
        <p className="mt-2 text-slate-700">
          Las calificaciones de los simulacros se envían a la columna <strong>«{column.label}»</strong> del libro de calificaciones del
          curso.
        </p>
      ) : (
        <p className="mt-2 text-slate-700">
          Vincule una columna del libro de calificaciones: al calificar un simulacro, la nota (sobre 10) y sus comentarios se envían al
          curso.
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-3">
        <Button variant={column ? 'ghost' : 'primary'} onClick={() => void linkTo()} disabled={link.isPending}>
          Crear columna «Simulacro oral»
        </Button>
        <Button variant="ghost" onClick={() => setChoosing(true)} disabled={link.isPending}>
          Elegir una columna del curso
        </Button>
      </div>
      {choosing && (
        <div className="mt-4">
          {items.isPending && <p className="text-slate-700">Cargando columnas del curso…</p>}
          {items.isError && (
            <Notice tone="error">
              {items.error instanceof Error ? items.error.message : 'No se pudieron leer las columnas del curso.'}
            </Notice>
          )}
          {items.data && items.data.items.length === 0 && (
            <p className="text-slate-700">El curso no tiene columnas que el simulador pueda usar.</p>
          )}
          {items.data && items.data.items.length > 0 && (
            <form
              className="flex flex-wrap items-end gap-3"
              onSubmit={(e) => {
                e.preventDefault()
                const target = picked || items.data.items[0].id
                void linkTo(target)
              }}
            >
              <div className="min-w-64 grow">
                <label htmlFor={id} className="block font-medium text-slate-800">
                  Columna
                </label>
                <select id={id} className={inputClass} value={picked || items.data.items[0].id} onChange={(e) => setPicked(e.target.value)}>
                  {items.data.items.map((it) => (
                    <option key={it.id} value={it.id}>
                      {it.label}
                      {it.scoreMaximum ? ` (sobre ${it.scoreMaximum})` : ''}
                    </option>
                  ))}
                </select>
              </div>
              <Button type="submit" disabled={link.isPending}>
                Vincular
              </Button>
            </form>
          )}
        </div>
      )}
    </div>
  )
}
