// @vitest-environment node
// One shape, two languages: the TypeScript types in api.ts must have the
// fields the Go server encodes and decodes. api-fields.json is the server's
// side, written by backend/cmd/apitypes from the DTOs (a Go test keeps it
// current); this test reads api.ts with the TypeScript compiler and
// compares each type's properties with it. A field that holds an object
// must hold the type of that name, so a nested shape is checked too and is
// written once.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

type GoField = { name: string; optional: boolean; shape?: string }
const goShapes = JSON.parse(readFileSync(fileURLToPath(new URL('./api-fields.json', import.meta.url)), 'utf8')) as Record<string, GoField[]>

type TsField = { name: string; optional: boolean; holds: string[] }

function typeScriptShapes(): Map<string, TsField[]> {
  const file = fileURLToPath(new URL('./api.ts', import.meta.url))
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, types: [], lib: ['lib.es2023.d.ts'] })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(file)!

  // holds names the object types a property's type is made of, through
  // null, undefined, arrays and records: the shapes it holds.
  const holds = (t: ts.Type): string[] => {
    if (t.isUnion()) return t.types.flatMap(holds)
    if (t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) return []
    if (checker.isArrayType(t) || checker.isTupleType(t)) return checker.getTypeArguments(t as ts.TypeReference).flatMap(holds)
    if (!(t.flags & ts.TypeFlags.Object) && !t.isIntersection()) return []
    // A map (Levels, fillers) holds its values.
    if (checker.getPropertiesOfType(t).length === 0 && checker.getIndexInfosOfType(t).length > 0)
      return checker.getIndexInfosOfType(t).flatMap((info) => holds(info.type))
    const name = t.aliasSymbol?.name ?? t.getSymbol()?.name
    return name && name !== '__type' && name !== '__object' ? [name] : ['an unnamed object']
  }

  const shapes = new Map<string, TsField[]>()
  source.forEachChild((node) => {
    if (!ts.isTypeAliasDeclaration(node) && !ts.isInterfaceDeclaration(node)) return
    const type = checker.getTypeAtLocation(node.name)
    shapes.set(
      node.name.text,
      checker.getPropertiesOfType(type).map((p) => ({
        name: p.name,
        optional: (p.flags & ts.SymbolFlags.Optional) !== 0,
        holds: [...new Set(holds(checker.getTypeOfSymbolAtLocation(p, node)))],
      })),
    )
  })
  return shapes
}

// A request body's type is named ...Request or ...Input.
const isRequestBody = (name: string) => /(Request|Input)$/.test(name)

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
    // In an answer, a field the server always sends is not optional (a
    // request body may leave out what the server reads as its zero value).
    if (!isRequestBody(name)) {
      const alwaysSent = go.filter((f) => !f.optional).map((f) => f.name)
      expect(
        mine!.filter((f) => alwaysSent.includes(f.name) && f.optional).map((f) => f.name),
        `${name}: fields the server always sends, marked optional`,
      ).toEqual([])
    }
    // A field holding a nested shape holds the type of that name (and no
    // inline copy of it); a field holding none holds no object type.
    const held = Object.fromEntries(mine!.map((f) => [f.name, f.holds]))
    const want = Object.fromEntries(go.map((f) => [f.name, f.shape ? [f.shape] : []]))
    expect(held, `${name}: the object types its fields hold (received) differ from the Go DTO's nested shapes (expected)`).toEqual(want)
  })

  it('checks the shapes it is given', () => {
    expect(Object.keys(goShapes).length).toBeGreaterThanOrEqual(100)
  })
})
