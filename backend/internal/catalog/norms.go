package catalog

import (
	"fmt"
	"strings"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/norms"
)

// checkNorms writes each legal base's norm under its canonical name
// ("Código Orgánico Integral Penal" becomes "COIP"), so that the bank and
// the transcript analyser speak of a norm the same way, and reports the
// norms the catalogue does not know. A blank norm is left to Validate.
func checkNorms(c *domain.Case) []domain.CaseProblem {
	var ps []domain.CaseProblem
	for i, b := range c.LegalBases {
		if strings.TrimSpace(b.Norm) == "" {
			continue
		}
		n, ok := norms.Lookup(b.Norm)
		if !ok {
			ps = append(ps, domain.CaseProblem{Field: "legalBases", Message: fmt.Sprintf(
				"Bases legales: la norma «%s» no está en el catálogo de normas vigentes (escriba su nombre o sus siglas, por ejemplo: Constitución, COIP, Código Civil, COGEP).", b.Norm)})
			continue
		}
		c.LegalBases[i].Norm = n.Name
	}
	return ps
}
