// Package demo holds the demo case bank that ships with the simulator so a
// new installation can be used at once.
//
// The content is demo material for faculty review: the cases were written
// for rehearsal of the examen complexivo and every citation must be checked
// by the faculty before the bank is used for real exams. See
// docs/demo-cases.md for the list of titles and the citations left out.
package demo

import _ "embed"

// Derecho is the demo case bank for the law degree ("Derecho"): a JSON array
// of cases in the product's case exchange format (degree, area, title,
// facts, questions, followUps, keyPoints, legalBases, status, demo). It is
// demo content for faculty review, not a validated exam bank.
//
//go:embed derecho.json
var Derecho []byte
