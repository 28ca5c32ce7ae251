// Sign-in, the header and the dialogs of the specification, in Firefox and
// WebKit (the project's engine): the texts verbatim.
import { writeFileSync } from 'node:fs'
import { test, expect } from './support/fixtures'
import { uniqueEmail } from '../support/server'
import { confirmDialog, dialogShown, signInWithPassword } from './support/journeys'

const nav = 'nav[aria-label="Principal"]'

test('sign-in with a password lands on /auth/carreras; Cerrar Sesión goes back to /inicio', async ({ open, server }) => {
  const b = await open()
  const student = await server.createUser('estudiante')
  await signInWithPassword(b, student)
  await b.waitFor({ role: 'button', name: 'Cerrar Sesión', within: nav })
  await b.click({ role: 'button', name: 'Cerrar Sesión', within: nav })
  await b.waitFor({ role: 'link', name: 'Iniciar Sesión', within: nav })
  expect(await b.url()).toMatch(/\/inicio$/)
  expect(await b.evaluate(() => localStorage.length)).toBe(0)
})

test('header per role and its colour on scroll; the login and group dialogs', async ({ open, server }, testInfo) => {
  const b = await open()
  // The guest's header.
  await b.goto('/inicio')
  await b.waitFor({ role: 'link', name: 'Inicio', within: nav })
  expect(await b.attributeOf({ role: 'link', name: 'Exámenes', within: nav }, 'href')).toBe('/login')
  expect(await b.attributeOf({ role: 'link', name: /UTPL/, within: nav }, 'href')).toBe('https://www.utpl.edu.ec')
  await b.waitFor({ role: 'link', name: 'Iniciar Sesión', within: nav })
  expect(await b.count({ text: 'Administrador', within: nav })).toBe(0)
  // Transparent at the top, white once scrolled.
  const background = () => b.evaluate(() => getComputedStyle(document.querySelector('header')!).backgroundColor)
  expect(await background()).toBe('rgba(0, 0, 0, 0)')
  await b.evaluate(() => window.scrollTo(0, 800))
  await b.waitFor({ css: 'header[data-scrolled="true"]' })
  await expect.poll(background).toBe('rgb(255, 255, 255)')

  // The login form's dialogs.
  await b.goto('/login')
  await b.click({ role: 'button', name: 'Continuar' })
  expect(await dialogShown(b, 'Error')).toEqual({ title: 'Error', text: 'Debe ingresar un correo y contraseña' })
  await confirmDialog(b)
  const tutor = await server.createUser('tutor')
  await b.fill({ label: 'Correo Electrónico' }, tutor.email)
  await b.fill({ label: 'Contraseña' }, 'otra-clave-mala')
  await b.click({ role: 'button', name: 'Continuar' })
  expect(await dialogShown(b, 'Oops...')).toEqual({ title: 'Oops...', text: 'El correo o la constraseña son incorrectos' })
  await confirmDialog(b)

  // The tutor's header, and the group's dialogs.
  await b.fill({ label: 'Contraseña' }, tutor.password)
  await b.click({ role: 'button', name: 'Continuar' })
  await b.waitFor({ role: 'link', name: 'Administrador', within: nav })
  expect(await b.attributeOf({ role: 'link', name: 'Exámenes', within: nav }, 'href')).toBe('/auth/carreras')
  await b.click({ role: 'link', name: 'Administrador', within: nav })
  await b.waitFor({ role: 'button', name: 'Cargar grupo' })
  expect(await b.url()).toMatch(/\/admin\/grupo$/)
  await b.click({ role: 'button', name: 'Finalizar grupo' })
  expect(await dialogShown(b, 'Error')).toEqual({ title: 'Error', text: 'No hay grupo activo' })
  await confirmDialog(b)
  const roster = testInfo.outputPath('grupo.csv')
  writeFileSync(roster, `email,degree,name,department,faculty,modality\r\n${uniqueEmail('motor')},Derecho\r\n`)
  await b.upload({ label: 'Archivo del grupo' }, roster)
  await b.click({ role: 'button', name: 'Cargar grupo' })
  expect(await dialogShown(b, 'Grupo cargado')).toEqual({ title: 'Grupo cargado', text: 'El grupo se ha cargado correctamente' })
  await confirmDialog(b)
  await b.click({ role: 'button', name: 'Finalizar grupo' })
  await dialogShown(b, '¿Finalizar el grupo?')
  await b.click({ role: 'button', name: 'Sí, finalizar', within: '.swal2-popup' })
  expect(await dialogShown(b, 'Grupo finalizado')).toEqual({ title: 'Grupo finalizado', text: 'El grupo se ha finalizado correctamente' })
  await confirmDialog(b)
})
