// @vitest-environment node
// One shape, two languages: the TypeScript types in api.ts must have the
// fields the Go server encodes. api-fields.json is the server's side,
// written by backend/cmd/apitypes from the DTOs (a Go test keeps it
// current); this test reads api.ts with the TypeScript compiler and
// compares each type's properties with it.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

type GoField = { name: string; optional: boolean }
const goShapes = JSON.parse(readFileSync(fileURLToPath(new URL('./api-fields.json', import.meta.url)), 'utf8')) as Record<string, GoField[]>

function typeScriptShapes(): Map<string, { name: string; optional: boolean }[]> {
  const file = fileURLToPath(new URL('./api.ts', import.meta.url))
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, types: [], lib: ['lib.es2023.d.ts'] })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(file)!
  const shapes = new Map<string, { name: string; optional: boolean }[]>()
  source.forEachChild((node) => {
    if (!ts.isTypeAliasDeclaration(node) && !ts.isInterfaceDeclaration(node)) return
    const type = checker.getTypeAtLocation(node.name)
    shapes.set(
      node.name.text,
      checker.getPropertiesOfType(type).map((p) => ({ name: p.name, optional: (p.flags & ts.SymbolFlags.Optional) !== 0 })),
    )
  })
  return shapes
}

describe('the API types match the Go DTOs', () => {
  const tsShapes = typeScriptShapes()

  it.each(Object.keys(goShapes).sort())('%s has the server’s fields', (name) => {
    const mine = tsShapes.get(name)
    expect(mine, `api.ts declares no type ${name}`).toBeDefined()
    const go = goShapes[name]
    expect(mine!.map((f) => f.name).sort(), `${name}: the fields of api.ts (received) differ from the Go DTO's (expected)`).toEqual(
      go.map((f) => f.name).sort(),
    )
    // A field the server may leave out must be optional in TypeScript.
    const leftOut = go.filter((f) => f.optional).map((f) => f.name)
    expect(
      mine!.filter((f) => leftOut.includes(f.name) && !f.optional).map((f) => f.name),
      `${name}: fields to mark optional`,
    ).toEqual([])
  })
})
