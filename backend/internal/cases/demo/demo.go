// Package demo holds the demo case bank that ships with the simulator so a
// new installation can be used at once.
//
// The content is demo material for faculty review: the cases were written
// for rehearsal of the examen complexivo and every citation must be checked
// by the faculty before the bank is used for real exams. See
// docs/demo-cases.md for what was checked and what remains for review.
package demo

import _ "embed"

// Derecho is the demo case bank for the law degree ("Derecho"), second
// edition: a JSON array of cases in the product's case exchange format
// (degree, area, title, difficulty, facts, questions, followUps, keyPoints,
// followUpKeyPoints, legalBases with a description each, status, demo). It
// is demo content for faculty review, not a validated exam bank.
//
//go:embed derecho.json
var Derecho []byte

// FormerTitles maps a case's title in this edition to its title in the
// first edition, for the cases renamed since (titles that gave the answer
// away). An installation upgraded from the first edition updates such a
// case in place instead of adding a second copy.
var FormerTitles = map[string]string{
	"Acción de protección contra la separación definitiva de una estudiante por plagio":                 "Acción de protección por expulsión sin debido proceso",
	"Acción extraordinaria de protección contra una sentencia de apelación en una acción de protección": "Acción extraordinaria de protección contra una sentencia inmotivada",
	"Acuerdo de procedimiento abreviado en un proceso por robo":                                         "Procedimiento abreviado sin admisión libre del hecho",
	"Clausura de un restaurante por ruido en Quito":                                                     "Sanción municipal de clausura sin procedimiento sancionador",
	"Cobro de facturas impagas sin título ejecutivo":                                                    "Procedimiento monitorio para cobrar facturas impagas",
	"Cobro de un pagaré con un abono no descontado":                                                     "Procedimiento ejecutivo con pagaré y pago parcial",
	"Denuncia de una mujer por insultos, control y amenazas de su esposo":                               "Violencia psicológica contra la mujer en el ámbito familiar",
	"Despido de una cajera días después de comunicar su embarazo":                                       "Despido ineficaz de una trabajadora embarazada",
	"Destitución de un servidor por abandono de funciones":                                              "Destitución de un servidor público sin sumario administrativo",
	"Hábeas corpus por la detención de un joven para un reconocimiento":                                 "Hábeas corpus por detención sin orden ni flagrancia",
	"Hábeas data contra un reporte crediticio de una deuda pagada":                                      "Hábeas data por información crediticia desactualizada",
	"Lesiones causadas por un tendero durante un asalto a su tienda":                                    "Legítima defensa del tendero frente a un ataque con cuchillo",
	"Licencia de construcción sin respuesta del municipio":                                              "Silencio administrativo positivo en una licencia de construcción",
	"Muerte de una paciente tras el alta médica temprana":                                               "Homicidio culposo por mala práctica profesional",
	"Ocupación de una franja de terreno por el vecino":                                                  "Acción reivindicatoria frente a la ocupación de una franja de terreno",
	"Solicitud de documentos de una obra de alcantarillado a un municipio":                              "Acceso a la información pública negado por un municipio",
	"Tenencia de un niño cuya madre se traslada a otra ciudad":                                          "Tenencia de un niño y derecho a ser escuchado",
	"Trabajador al que se impidió el ingreso y se registró como abandono":                               "Despido intempestivo disfrazado de abandono",
	"Transferencias de una junta parroquial a la empresa del cuñado del tesorero":                       "Peculado en una junta parroquial y participación de un particular",
	"Venta de un vehículo usado con el odómetro alterado":                                               "Dolo en la venta de un vehículo usado",
	"Visto bueno por la ausencia de un trabajador durante la hospitalización de su madre":               "Visto bueno por abandono del trabajo durante una calamidad familiar",
}
