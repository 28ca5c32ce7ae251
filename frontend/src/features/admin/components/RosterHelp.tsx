export function RosterHelp() {
  return (
    <div className="text-sm text-slate-700">
      <p>
        El archivo debe tener una fila de encabezado con las columnas <strong>email</strong>, <strong>name</strong>,{' '}
        <strong>degree</strong>, <strong>department</strong>, <strong>faculty</strong> y <strong>modality</strong> (también se
        aceptan en español: correo, nombre, carrera, departamento, facultad, modalidad). La carrera debe existir en el sistema.
      </p>
      <p className="mt-2">
        <a href="/plantilla-grupo.csv" download className="font-semibold text-brand-700 underline">
          Descargar plantilla CSV
        </a>
      </p>
    </div>
  )
}
