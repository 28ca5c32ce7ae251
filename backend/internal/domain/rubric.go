package domain

import "fmt"

// Criterion groups (docs/product.md, "Rubric and score").
const (
	GroupContenido    = "contenido"
	GroupFormalidades = "formalidades"
)

// Rubric levels: 4 Excelente, 3 Satisfactorio, 2 En desarrollo, 1 Insuficiente.
const (
	MinLevel = 1
	MaxLevel = 4
)

// LevelNames names each level, indexed by level.
var LevelNames = map[int]string{4: "Excelente", 3: "Satisfactorio", 2: "En desarrollo", 1: "Insuficiente"}

// Criterion is one row of the rubric. Descriptors[level-1] says what that
// level looks like, in one Spanish line.
type Criterion struct {
	ID          string    `json:"id"`
	Group       string    `json:"group"`
	Name        string    `json:"name"`
	Weight      int       `json:"weight"`
	Description string    `json:"description"`
	Descriptors [4]string `json:"descriptors"`
}

// Rubric is a degree's grading rubric. Attempts keep a copy of the rubric in
// force when they started, so editing it never changes a past score.
type Rubric struct {
	DegreeID  string      `json:"degreeId"`
	Version   int         `json:"version"`
	PassScore float64     `json:"passScore"`
	Criteria  []Criterion `json:"criteria"`
}

// Levels maps criterion id to the level given (1..4).
type Levels map[string]int

// Score is sum(weight × level / 4) / 10: a mark out of 10, rounded half up
// to two decimals. Levels must be complete (see ValidateLevels).
//
// It is computed in integers: points = sum(weight × level) is exact, the
// mark is points / 40, so the mark in hundredths is points × 5 / 2, whose
// only possible fraction is one half. Floating point would turn 8.075 into
// 8.07499… and round it down.
func (r Rubric) Score(levels Levels) float64 {
	points := 0
	for _, c := range r.Criteria {
		points += c.Weight * levels[c.ID]
	}
	hundredths := (points*5 + 1) / 2 // half up (points is never negative)
	return float64(hundredths) / 100
}

// Passed reports whether score reaches the pass mark.
func (r Rubric) Passed(score float64) bool { return score >= r.PassScore }

// ValidateLevels checks that every criterion has a level in 1..4 and no
// unknown criterion is present.
func (r Rubric) ValidateLevels(levels Levels) error {
	known := map[string]bool{}
	for _, c := range r.Criteria {
		known[c.ID] = true
		l, ok := levels[c.ID]
		if !ok {
			return Invalid("levels_incomplete", fmt.Sprintf("Falta calificar el criterio «%s».", c.Name))
		}
		if l < MinLevel || l > MaxLevel {
			return Invalid("level_out_of_range", fmt.Sprintf("El nivel de «%s» debe estar entre 1 y 4.", c.Name))
		}
	}
	for id := range levels {
		if !known[id] {
			return Invalid("unknown_criterion", fmt.Sprintf("El criterio «%s» no existe en la rúbrica.", id))
		}
	}
	return nil
}

// Validate checks a rubric edited by a tutor.
func (r Rubric) Validate() error {
	if len(r.Criteria) == 0 || len(r.Criteria) > 20 {
		return Invalid("rubric_criteria", "La rúbrica debe tener entre 1 y 20 criterios.")
	}
	if r.PassScore <= 0 || r.PassScore > 10 {
		return Invalid("rubric_pass", "La nota mínima de aprobación debe estar entre 0 y 10.")
	}
	sum := 0
	ids := map[string]bool{}
	for i, c := range r.Criteria {
		where := fmt.Sprintf("Criterio %d", i+1)
		switch {
		case c.ID == "" || len(c.ID) > 8:
			return Invalid("rubric_id", where+": el código es obligatorio (hasta 8 caracteres).")
		case ids[c.ID]:
			return Invalid("rubric_id", fmt.Sprintf("%s: el código «%s» está repetido.", where, c.ID))
		case c.Group != GroupContenido && c.Group != GroupFormalidades:
			return Invalid("rubric_group", where+": el grupo debe ser contenido o formalidades.")
		case c.Name == "" || len([]rune(c.Name)) > 160:
			return Invalid("rubric_name", where+": el nombre es obligatorio (hasta 160 caracteres).")
		case c.Weight < 1 || c.Weight > 100:
			return Invalid("rubric_weight", where+": el peso debe estar entre 1 y 100.")
		}
		for l, d := range c.Descriptors {
			if d == "" || len([]rune(d)) > 400 {
				return Invalid("rubric_descriptor", fmt.Sprintf("%s: falta la descripción del nivel %d.", where, l+1))
			}
		}
		ids[c.ID] = true
		sum += c.Weight
	}
	if sum != 100 {
		return Invalid("rubric_weights", fmt.Sprintf("Los pesos deben sumar 100 (suman %d).", sum))
	}
	return nil
}

// DefaultRubric is the product's rubric (docs/product.md, "Rubric and
// score"): contents 70, formalities 30.
func DefaultRubric(degreeID string) Rubric {
	return Rubric{DegreeID: degreeID, Version: 1, PassScore: 7.0, Criteria: []Criterion{
		{ID: "C1", Group: GroupContenido, Name: "Problema jurídico y hechos", Weight: 15,
			Description: "Identifica los hechos relevantes y formula con precisión el problema jurídico.",
			Descriptors: [4]string{
				"No identifica los hechos relevantes ni el problema jurídico.",
				"Relata los hechos de forma desordenada o incompleta; el problema jurídico es vago.",
				"Expone los hechos principales y formula el problema jurídico con claridad, con omisiones menores.",
				"Expone los hechos relevantes con exactitud y formula el problema jurídico de forma precisa y completa.",
			}},
		{ID: "C2", Group: GroupContenido, Name: "Normativa aplicable (Constitución, ley, artículos exactos)", Weight: 15,
			Description: "Cita la normativa aplicable: la Constitución, la ley y los artículos exactos.",
			Descriptors: [4]string{
				"No cita normativa o cita normas que no aplican al caso.",
				"Menciona normas de forma general o con errores en los artículos.",
				"Cita la normativa principal con sus artículos, con alguna imprecisión menor.",
				"Cita con exactitud la Constitución, la ley y los artículos aplicables, sin errores.",
			}},
		{ID: "C3", Group: GroupContenido, Name: "Análisis y argumentación (subsunción, doctrina, jurisprudencia)", Weight: 20,
			Description: "Subsume los hechos en la norma y argumenta con doctrina y jurisprudencia.",
			Descriptors: [4]string{
				"No hay análisis jurídico: repite los hechos o da opiniones sin fundamento.",
				"El análisis es descriptivo y relaciona poco los hechos con las normas.",
				"Relaciona hechos y normas con argumentos sólidos; el apoyo doctrinario o jurisprudencial es limitado.",
				"Subsume los hechos en la norma con rigor y sostiene su posición con doctrina y jurisprudencia pertinentes.",
			}},
		{ID: "C4", Group: GroupContenido, Name: "Conclusión y vía procesal", Weight: 10,
			Description: "Llega a una conclusión fundada e indica la vía procesal, el juez competente y los plazos.",
			Descriptors: [4]string{
				"No concluye o propone una vía procesal improcedente.",
				"La conclusión es débil o la vía procesal es imprecisa.",
				"Concluye con coherencia e indica la vía procesal, con detalles menores por precisar.",
				"Concluye de forma fundada y señala con precisión la vía procesal, el juez competente y los plazos.",
			}},
		{ID: "C5", Group: GroupContenido, Name: "Respuestas al tribunal", Weight: 10,
			Description: "Responde las preguntas del tribunal con pertinencia, fundamento y seguridad.",
			Descriptors: [4]string{
				"No responde o sus respuestas no corresponden a lo preguntado.",
				"Responde de forma parcial, general o sin fundamento.",
				"Responde la mayoría de las preguntas con fundamento, con alguna duda menor.",
				"Responde todas las preguntas con pertinencia, fundamento normativo y seguridad.",
			}},
		{ID: "F1", Group: GroupFormalidades, Name: "Protocolo (saludo, trato, cierre)", Weight: 5,
			Description: "Saluda al tribunal, mantiene el trato formal y cierra la exposición adecuadamente.",
			Descriptors: [4]string{
				"No observa el protocolo ante el tribunal.",
				"Omite el saludo o el cierre, o el trato es poco formal.",
				"Cumple el saludo y el cierre, con alguna falta menor en el trato.",
				"Saluda al tribunal, mantiene un trato respetuoso en toda la exposición y cierra formalmente.",
			}},
		{ID: "F2", Group: GroupFormalidades, Name: "Estructura (introducción, hechos, problema, normas, análisis, conclusión)", Weight: 8,
			Description: "Ordena la exposición: introducción, hechos, problema, normas, análisis y conclusión.",
			Descriptors: [4]string{
				"La exposición no tiene una estructura reconocible.",
				"Faltan partes de la estructura o el orden dificulta seguir la exposición.",
				"La estructura es clara, aunque alguna parte es breve o está fuera de orden.",
				"Sigue con claridad todas las partes: introducción, hechos, problema, normas, análisis y conclusión.",
			}},
		{ID: "F3", Group: GroupFormalidades, Name: "Manejo del tiempo", Weight: 5,
			Description: "Usa el tiempo asignado de forma equilibrada, sin excederlo ni quedarse corto.",
			Descriptors: [4]string{
				"No controla el tiempo: la exposición queda inconclusa.",
				"Se excede o usa mucho menos tiempo del asignado.",
				"Termina dentro del límite, con partes algo desbalanceadas.",
				"Usa el tiempo asignado de forma equilibrada y termina dentro del límite.",
			}},
		{ID: "F4", Group: GroupFormalidades, Name: "Lenguaje jurídico", Weight: 7,
			Description: "Emplea la terminología jurídica con propiedad y precisión.",
			Descriptors: [4]string{
				"No emplea lenguaje jurídico.",
				"Mezcla lenguaje coloquial con términos jurídicos mal empleados.",
				"Usa lenguaje jurídico adecuado, con imprecisiones aisladas.",
				"Emplea la terminología jurídica con propiedad y precisión en toda la exposición.",
			}},
		{ID: "F5", Group: GroupFormalidades, Name: "Expresión oral (claridad, ritmo, muletillas)", Weight: 5,
			Description: "Se expresa con claridad, con un ritmo adecuado y sin muletillas.",
			Descriptors: [4]string{
				"La expresión dificulta comprender la exposición.",
				"La expresión es poco clara, con muletillas frecuentes o ritmo irregular.",
				"Se expresa con claridad, con algunas muletillas o cambios de ritmo.",
				"Se expresa con claridad, buen ritmo y volumen, sin muletillas.",
			}},
	}}
}
