package catalog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"

	"github.com/utpl/simulador/backend/internal/cases/demo"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/sheetcsv"
	"github.com/utpl/simulador/backend/internal/store"
)

// ExchangeCase is the JSON exchange format of the case bank (also the
// columns of the CSV format).
type ExchangeCase struct {
	Degree     string             `json:"degree"`
	Area       string             `json:"area"`
	Title      string             `json:"title"`
	Facts      string             `json:"facts"`
	Questions  []string           `json:"questions"`
	FollowUps  []string           `json:"followUps"`
	KeyPoints  []string           `json:"keyPoints"`
	LegalBases []domain.LegalBase `json:"legalBases"`
	Status     string             `json:"status"`
	Demo       bool               `json:"demo"`
}

// ImportProblem is one thing wrong in an import file: the row (the JSON
// list position, or the CSV row as a spreadsheet numbers it) and column.
type ImportProblem struct {
	Row     int    `json:"row"`
	Column  string `json:"column"`
	Message string `json:"message"`
}

// ImportResult counts what an import did.
type ImportResult struct {
	Created int `json:"created"`
	Updated int `json:"updated"`
}

// MaxImportBytes bounds an import file.
const MaxImportBytes = 8 << 20

// DefaultImportMaxRows is how many cases one import file may hold unless
// the installation sets another cap (CASE_IMPORT_MAX_ROWS): a whole bank
// fits, while a hostile file stops being read at the cap.
const DefaultImportMaxRows = 2000

// maxImportProblems is how many problems are reported before the file
// stops being read; a final problem then says that more exist.
const maxImportProblems = 20

var csvHeader = []string{"degree", "area", "title", "facts", "questions", "followUps", "keyPoints", "legalBases", "status", "demo"}

// SetImportMaxRows sets how many cases one import file may hold (n > 0).
func (s *Service) SetImportMaxRows(n int) {
	if n > 0 {
		s.importMaxRows = n
	}
}

// ImportCases reads a JSON or CSV file (by extension) and creates or updates
// cases, matched by degree and title. Every row is checked first: one
// problem and nothing is written. The file is parsed as it is read, and
// reading stops at the row cap or after maxImportProblems problems, so a
// hostile file costs no more than a legitimate one of the cap's size.
func (s *Service) ImportCases(ctx context.Context, r io.Reader, filename string) (ImportResult, error) {
	in := &cappedReader{r: r, left: MaxImportBytes}
	var rows []ExchangeCase
	var lines []int
	var err error
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".json":
		rows, lines, err = decodeJSON(in, s.importMaxRows)
	case ".csv":
		rows, lines, err = decodeCSV(in, s.importMaxRows)
	default:
		err = importError(ImportProblem{Message: "Formato no admitido; use un archivo .json o .csv."})
	}
	var tooBig *http.MaxBytesError
	if errors.Is(err, errImportTooLarge) || errors.As(err, &tooBig) {
		return ImportResult{}, importError(ImportProblem{Message: "El archivo supera el límite de 8 MB."})
	}
	if err != nil {
		return ImportResult{}, err
	}
	return s.importRows(ctx, rows, lines)
}

var errImportTooLarge = errors.New("import file over MaxImportBytes")

// cappedReader fails with errImportTooLarge once more than left bytes
// were asked for.
type cappedReader struct {
	r    io.Reader
	left int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, errImportTooLarge
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n, errImportTooLarge
	}
	return n, err
}

// importProblems collects problems up to maxImportProblems.
type importProblems []ImportProblem

// add records p and reports whether reading should stop because the cap
// was passed, in which case a final problem says more exist.
func (ps *importProblems) add(p ImportProblem) (full bool) {
	if len(*ps) == maxImportProblems {
		*ps = append(*ps, ImportProblem{Message: "Hay más errores; corrija los anteriores y vuelva a importar el archivo."})
		return true
	}
	*ps = append(*ps, p)
	return false
}

func tooManyRows(max int) error {
	return importError(ImportProblem{Message: fmt.Sprintf("El archivo tiene más de %d casos; impórtelos en varios archivos.", max)})
}

// ImportDemoBank loads the bundled demo cases once per installation, so a
// fresh install can be used at once and tutors' later edits are kept.
//
// Several instances may start at once on an empty store: the check of the
// marker, the cases and the marker itself are one transaction, so exactly
// one of them loads the bank. The others' transactions conflict with it
// (Firestore runs them again and they find the marker; PostgreSQL refuses
// their first case as a duplicate title) and they load nothing.
func (s *Service) ImportDemoBank(ctx context.Context) (ImportResult, error) {
	if _, err := s.store.GetMeta(ctx, demoBankKey); err == nil {
		return ImportResult{}, nil
	} else if !errors.Is(err, domain.ErrNotFound) {
		return ImportResult{}, err
	}
	rows, lines, err := decodeJSON(bytes.NewReader(demo.Derecho), DefaultImportMaxRows)
	if err != nil {
		return ImportResult{}, fmt.Errorf("demo bank: %w", err)
	}
	res, err := s.importRowsOnce(ctx, rows, lines, demoBankKey)
	if errors.Is(err, domain.ErrConflict) {
		// Another instance was loading the bank at the same moment.
		if _, merr := s.store.GetMeta(ctx, demoBankKey); merr == nil {
			return ImportResult{}, nil
		}
	}
	if err != nil {
		return res, fmt.Errorf("demo bank: %w", err)
	}
	return res, nil
}

// demoBankKey is the meta key that marks the demo bank as loaded.
const demoBankKey = "demo_bank_v1"

func (s *Service) importRows(ctx context.Context, rows []ExchangeCase, lines []int) (ImportResult, error) {
	return s.importRowsOnce(ctx, rows, lines, "")
}

// importRowsOnce imports rows; with a marker (a meta key) it does so only
// when the marker is not set, in the same transaction as the import, which
// also sets it, and it leaves cases with an existing title alone instead of
// updating them.
func (s *Service) importRowsOnce(ctx context.Context, rows []ExchangeCase, lines []int, marker string) (ImportResult, error) {
	if len(rows) == 0 {
		return ImportResult{}, importError(ImportProblem{Message: "El archivo no tiene casos."})
	}
	degrees, err := s.store.ListDegrees(ctx)
	if err != nil {
		return ImportResult{}, err
	}
	degreeByName := make(map[string]string, len(degrees))
	for _, d := range degrees {
		degreeByName[fold(d.Nombre)] = d.ID
	}
	var problems importProblems
	cases := make([]domain.Case, len(rows))
	seen := map[string]int{}
rows:
	for i, r := range rows {
		row := lines[i]
		c := domain.Case{Area: r.Area, Title: r.Title, Facts: r.Facts, Questions: r.Questions, FollowUps: r.FollowUps,
			KeyPoints: r.KeyPoints, LegalBases: r.LegalBases, Status: domain.CaseStatus(r.Status), Demo: r.Demo}
		c.Normalize()
		found := []ImportProblem{}
		if id, ok := degreeByName[fold(r.Degree)]; ok {
			c.DegreeID = id
		} else {
			found = append(found, ImportProblem{Row: row, Column: "degree", Message: fmt.Sprintf("La carrera «%s» no existe.", domain.Shorten(r.Degree))})
		}
		for _, p := range append(c.Validate(), checkNorms(&c)...) {
			found = append(found, ImportProblem{Row: row, Column: p.Field, Message: p.Message})
		}
		key := c.DegreeID + "\x00" + fold(c.Title)
		if prev, dup := seen[key]; dup && c.Title != "" {
			found = append(found, ImportProblem{Row: row, Column: "title", Message: fmt.Sprintf("El título «%s» está repetido (fila %d).", domain.Shorten(c.Title), prev)})
		}
		seen[key] = row
		cases[i] = c
		for _, p := range found {
			if problems.add(p) {
				break rows
			}
		}
	}
	if len(problems) > 0 {
		return ImportResult{}, importError(problems...)
	}
	var res ImportResult
	now := s.now().UTC()
	err = s.store.InTx(ctx, func(tx store.Store) error {
		res = ImportResult{}
		if marker != "" {
			if _, err := tx.GetMeta(ctx, marker); err == nil {
				return nil // loaded already (by another instance)
			} else if !errors.Is(err, domain.ErrNotFound) {
				return err
			}
		}
		for _, c := range cases {
			cur, err := tx.GetCaseByTitle(ctx, c.DegreeID, c.Title)
			switch {
			case err == nil && marker != "":
				// A tutor's case under the same title stays as it is.
			case errors.Is(err, domain.ErrNotFound):
				c.ID, c.CreatedAt, c.UpdatedAt = domain.NewID(), now, now
				if err := tx.CreateCase(ctx, c); err != nil {
					return err
				}
				res.Created++
			case err != nil:
				return err
			default:
				c.ID, c.CreatedAt, c.UpdatedAt = cur.ID, cur.CreatedAt, now
				if err := tx.UpdateCase(ctx, c); err != nil {
					return err
				}
				res.Updated++
			}
		}
		if marker != "" {
			return tx.SetMeta(ctx, marker, "1")
		}
		return nil
	})
	return res, err
}

func importError(ps ...ImportProblem) error {
	return &domain.UserError{Code: "invalid_cases", Message: "El archivo de casos tiene errores; no se importó nada.", Details: ps}
}

// skipBOM drops a UTF-8 byte order mark at the start of r.
func skipBOM(r io.Reader) *bufio.Reader {
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		_, _ = br.Discard(3)
	}
	return br
}

// decodeJSON reads a list of exchange cases strictly (unknown fields are
// errors, so a misspelt field does not silently drop data), one case at a
// time, stopping after maxRows cases or maxImportProblems problems.
func decodeJSON(r io.Reader, maxRows int) ([]ExchangeCase, []int, error) {
	dec := json.NewDecoder(skipBOM(r))
	dec.DisallowUnknownFields()
	var problems importProblems
	notAList := func(row int, err error) error {
		if errors.Is(err, errImportTooLarge) {
			return err
		}
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		problems.add(ImportProblem{Row: row, Message: "El archivo no es una lista JSON de casos válida: " + jsonReason(err)})
		return importError(problems...)
	}
	if tok, err := dec.Token(); err != nil {
		return nil, nil, notAList(0, err)
	} else if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, nil, notAList(0, errors.New("not a list"))
	}
	var rows []ExchangeCase
	var lines []int
	for row := 1; dec.More(); row++ {
		if row > maxRows {
			return nil, nil, tooManyRows(maxRows)
		}
		var c ExchangeCase
		err := dec.Decode(&c)
		var te *json.UnmarshalTypeError
		switch {
		case err == nil:
			rows, lines = append(rows, c), append(lines, row)
		case errors.As(err, &te), strings.HasPrefix(err.Error(), "json: unknown field "):
			// The value was read whole: the next case can still be read.
			if problems.add(ImportProblem{Row: row, Message: "Caso no válido: " + jsonReason(err)}) {
				return nil, nil, importError(problems...)
			}
		default:
			return nil, nil, notAList(row, err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ]
		return nil, nil, notAList(0, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = errors.New("data after the list")
		}
		return nil, nil, notAList(0, err)
	}
	if len(problems) > 0 {
		return nil, nil, importError(problems...)
	}
	return rows, lines, nil
}

func jsonReason(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("el campo «%s» tiene un tipo incorrecto.", domain.Shorten(te.Field))
	}
	if msg := err.Error(); strings.HasPrefix(msg, "json: unknown field ") {
		return "campo desconocido " + domain.Shorten(strings.TrimPrefix(msg, "json: unknown field ")) + "."
	}
	return "formato JSON incorrecto."
}

// decodeCSV reads the CSV exchange format row by row: list cells hold one
// item per line, legal bases as "Norm: article". It stops after maxRows
// cases or maxImportProblems problems.
func decodeCSV(r io.Reader, maxRows int) ([]ExchangeCase, []int, error) {
	br := skipBOM(r)
	sep := ','
	// The separator is the one the header line uses most.
	first, _ := br.Peek(4096)
	if line, _, _ := bytes.Cut(first, []byte("\n")); bytes.Count(line, []byte(";")) > bytes.Count(line, []byte(",")) {
		sep = ';'
	}
	next := sheetcsv.RowsFrom(br, sep)
	_, header, err := next()
	if err != nil {
		if errors.Is(err, errImportTooLarge) {
			return nil, nil, err
		}
		return nil, nil, importError(ImportProblem{Row: 1, Message: "No se pudo leer el encabezado del CSV."})
	}
	header = slices.Clone(header)
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	var problems importProblems
	for _, h := range csvHeader {
		if _, ok := col[h]; !ok {
			problems.add(ImportProblem{Row: 1, Column: h, Message: fmt.Sprintf("Falta la columna «%s».", h)})
		}
	}
	if len(problems) > 0 {
		return nil, nil, importError(problems...)
	}
	var rows []ExchangeCase
	var lines []int
	for {
		// Rows are numbered as a spreadsheet shows them (the header is row 1),
		// not as lines of the file: list cells hold one item per line.
		line, rec, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var se *sheetcsv.SyntaxError
			if !errors.As(err, &se) {
				return nil, nil, err
			}
			problems.add(ImportProblem{Row: se.Row, Message: "El CSV está mal formado (revise las comillas)."})
			return nil, nil, importError(problems...)
		}
		get := func(name string) string {
			if i := col[name]; i < len(rec) {
				return sheetcsv.UnescapeFormula(rec[i])
			}
			return ""
		}
		if strings.TrimSpace(strings.Join(rec, "")) == "" {
			continue
		}
		if len(rows) == maxRows {
			return nil, nil, tooManyRows(maxRows)
		}
		ex := ExchangeCase{Degree: get("degree"), Area: get("area"), Title: get("title"), Facts: get("facts"),
			Questions: splitLines(get("questions")), FollowUps: splitLines(get("followUps")), KeyPoints: splitLines(get("keyPoints")),
			Status: strings.TrimSpace(get("status"))}
		var found []ImportProblem
		switch strings.ToLower(strings.TrimSpace(get("demo"))) {
		case "true", "1", "sí", "si":
			ex.Demo = true
		case "false", "0", "no", "":
		default:
			found = append(found, ImportProblem{Row: line, Column: "demo", Message: "demo debe ser true o false."})
		}
		for _, l := range splitLines(get("legalBases")) {
			n, a, ok := strings.Cut(l, ":")
			if !ok {
				found = append(found, ImportProblem{Row: line, Column: "legalBases", Message: fmt.Sprintf("«%s» debe tener la forma «Norma: artículo».", domain.Shorten(l))})
				continue
			}
			ex.LegalBases = append(ex.LegalBases, domain.LegalBase{Norm: strings.TrimSpace(n), Article: strings.TrimSpace(a)})
		}
		for _, p := range found {
			if problems.add(p) {
				return nil, nil, importError(problems...)
			}
		}
		rows = append(rows, ex)
		lines = append(lines, line)
	}
	if len(problems) > 0 {
		return nil, nil, importError(problems...)
	}
	return rows, lines, nil
}

func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// Export returns the degree's cases (all degrees when degreeID is "") in
// the exchange format; an unknown degree is not found.
func (s *Service) Export(ctx context.Context, degreeID string) ([]ExchangeCase, error) {
	names, err := s.DegreeNames(ctx)
	if err != nil {
		return nil, err
	}
	if _, ok := names[degreeID]; degreeID != "" && !ok {
		return nil, domain.NotFound("degree_not_found", "La carrera no existe.")
	}
	cases, err := s.store.ListCases(ctx, store.CaseFilter{DegreeID: degreeID})
	if err != nil {
		return nil, err
	}
	out := make([]ExchangeCase, len(cases))
	for i, c := range cases {
		out[i] = ExchangeCase{Degree: names[c.DegreeID], Area: c.Area, Title: c.Title, Facts: c.Facts, Questions: nonNil(c.Questions),
			FollowUps: nonNil(c.FollowUps), KeyPoints: nonNil(c.KeyPoints), LegalBases: nonNil(c.LegalBases), Status: string(c.Status), Demo: c.Demo}
	}
	return out, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// WriteJSON writes cases in the JSON exchange format.
func WriteJSON(w io.Writer, cases []ExchangeCase) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(cases)
}

// WriteCSV writes cases in the CSV exchange format, UTF-8 with a BOM so
// Excel shows accents right. Cells that a spreadsheet would run as formulas
// are escaped (sheetcsv.EscapeFormula); the CSV import undoes it.
func WriteCSV(w io.Writer, cases []ExchangeCase) error {
	if _, err := io.WriteString(w, "\ufeff"); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, c := range cases {
		bases := make([]string, len(c.LegalBases))
		for i, b := range c.LegalBases {
			bases[i] = b.String()
		}
		rec := []string{c.Degree, c.Area, c.Title, c.Facts, strings.Join(c.Questions, "\n"), strings.Join(c.FollowUps, "\n"),
			strings.Join(c.KeyPoints, "\n"), strings.Join(bases, "\n"), c.Status, fmt.Sprint(c.Demo)}
		for i, cell := range rec {
			rec[i] = sheetcsv.EscapeFormula(cell)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
