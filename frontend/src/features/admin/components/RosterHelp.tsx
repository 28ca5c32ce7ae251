// RosterHelp explains the roster file; groupDegree, when adding to a group,
// is the only degree its rows may name.
export function RosterHelp({ groupDegree }: { groupDegree?: string }) {
  return (
    <div className="text-sm text-slate-700">
      <p>
        El archivo debe tener una fila de encabezado con las columnas <strong>email</strong>, <strong>name</strong>, <strong>degree</strong>
        , <strong>department</strong>, <strong>faculty</strong> y <strong>modality</strong> (también se aceptan en español: correo, nombre,
        carrera, departamento, facultad, modalidad); las seis son obligatorias. Cada fila necesita un correo y la carrera,{' '}
        {groupDegree ? <>que debe ser la del grupo ({groupDegree})</> : 'que debe existir en el sistema'}; los demás valores pueden quedar
        vacíos.
      </p>
      <p className="mt-2">
        <a href="/plantilla-grupo.csv" download className="font-semibold text-brand-700 underline">
          Descargar plantilla CSV
        </a>
      </p>
    </div>
  )
}
