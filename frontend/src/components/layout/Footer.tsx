import { useAppConfig } from '@/lib/config'

const icons = {
  facebook: 'M14 8h3V4h-3c-2.8 0-4 1.8-4 4.3V10H7v4h3v8h4v-8h3l1-4h-4V8.6c0-.4.3-.6.6-.6Z',
  instagram:
    'M12 7a5 5 0 1 0 0 10 5 5 0 0 0 0-10Zm0 8.2a3.2 3.2 0 1 1 0-6.4 3.2 3.2 0 0 1 0 6.4ZM17.3 5.5a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4ZM12 2.5c-2.6 0-2.9 0-3.9.1C4.6 2.7 2.7 4.6 2.6 8.1 2.5 9.1 2.5 9.4 2.5 12s0 2.9.1 3.9c.1 3.5 2 5.4 5.5 5.5 1 .1 1.3.1 3.9.1s2.9 0 3.9-.1c3.5-.1 5.4-2 5.5-5.5.1-1 .1-1.3.1-3.9s0-2.9-.1-3.9c-.1-3.5-2-5.4-5.5-5.5-1-.1-1.3-.1-3.9-.1Z',
  x: 'M17.8 3h3.1l-6.8 7.8L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.3-8.3L2 3h6.4l4.4 5.8L17.8 3Zm-1.1 16.2h1.7L7.4 4.7H5.6l11.1 14.5Z',
  youtube:
    'M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 0 0 2.4 7.2 26 26 0 0 0 2 12a26 26 0 0 0 .4 4.8 2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8A26 26 0 0 0 22 12a26 26 0 0 0-.4-4.8ZM10 15V9l5.2 3L10 15Z',
} as const

export function Footer() {
  const { data: config } = useAppConfig()
  const site = config?.site
  const socials = site
    ? (
        [
          ['facebook', 'Facebook', site.facebook],
          ['instagram', 'Instagram', site.instagram],
          ['x', 'X (Twitter)', site.x],
          ['youtube', 'YouTube', site.youtube],
        ] as const
      ).filter(([, , url]) => url)
    : []

  return (
    <footer className="bg-brand-900 text-brand-100" id="contacto">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-3">
        <div>
          <p className="text-lg font-bold text-white">Simulador del Examen Complexivo Oral</p>
          <p className="mt-2 text-sm">Carrera de Derecho, modalidad a distancia.</p>
        </div>
        <div>
          <h2 className="font-semibold text-white">Contacto</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {site?.contactEmail && (
              <li>
                Correo:{' '}
                <a className="underline hover:text-white" href={`mailto:${site.contactEmail}`}>
                  {site.contactEmail}
                </a>
              </li>
            )}
            {site?.contactPhone && (
              <li>
                Teléfono:{' '}
                <a className="underline hover:text-white" href={`tel:${site.contactPhone.replace(/\s+/g, '')}`}>
                  {site.contactPhone}
                </a>
              </li>
            )}
            {site?.contactAddress && <li>Dirección: {site.contactAddress}</li>}
          </ul>
        </div>
        <div>
          <h2 className="font-semibold text-white">Redes sociales</h2>
          <ul className="mt-3 flex gap-3">
            {socials.map(([key, label, url]) => (
              <li key={key}>
                <a
                  href={url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex size-11 items-center justify-center rounded-full bg-white/10 text-white hover:bg-white/20"
                >
                  <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="currentColor">
                    <path d={icons[key]} />
                  </svg>
                  <span className="sr-only">{label} (se abre en una pestaña nueva)</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-4 py-4 text-sm sm:px-6">
          © 2023 {site?.institutionName ?? 'Universidad Técnica Particular de Loja'}. Todos los derechos reservados.
        </p>
      </div>
    </footer>
  )
}
