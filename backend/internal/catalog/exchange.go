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
	"strconv"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/cases/demo"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/sheetcsv"
	"github.com/utpl/simulador/backend/internal/store"
)

// ExchangeCase is the JSON exchange format of the case bank (also the
// columns of the CSV format).
type ExchangeCase struct {
	Degree string `json:"degree"`
	Area   string `json:"area"`
	Title  string `json:"title"`
	// Difficulty is basico, intermedio or avanzado. A file written before
	// difficulties existed has none: a new case gets intermedio, an
	// existing one keeps its own.
	Difficulty string   `json:"difficulty,omitempty"`
	Facts      string   `json:"facts"`
	Questions  []string `json:"questions"`
	FollowUps  []string `json:"followUps"`
	KeyPoints  []string `json:"keyPoints"`
	// FollowUpKeyPoints: for each follow-up, the number (1-based) of the
	// key point that answers it, 0 for none. Absent (nil) in an older
	// file: an existing case keeps its own links while they still fit.
	FollowUpKeyPoints []int              `json:"followUpKeyPoints,omitempty"`
	LegalBases        []domain.LegalBase `json:"legalBases"`
	Status            string             `json:"status"`
	Demo              bool               `json:"demo"`
}

// Case is the row as a case of the bank, before normalization and
// without its degree (the row names it; the importer resolves the name).
func (r ExchangeCase) Case() domain.Case {
	return domain.Case{Area: r.Area, Title: r.Title, Facts: r.Facts, Questions: r.Questions, FollowUps: r.FollowUps,
		KeyPoints: r.KeyPoints, FollowUpKeyPoints: r.FollowUpKeyPoints, LegalBases: r.LegalBases,
		Difficulty: domain.Difficulty(r.Difficulty), Status: domain.CaseStatus(r.Status), Demo: r.Demo}
}

// exchangeCaseOf is c as a row of the exchange format, with its degree's
// name; empty lists are written [].
func exchangeCaseOf(c domain.Case, degree string) ExchangeCase {
	return ExchangeCase{Degree: degree, Area: c.Area, Title: c.Title, Difficulty: string(c.Difficulty), Facts: c.Facts,
		Questions: domain.NonNil(c.Questions), FollowUps: domain.NonNil(c.FollowUps), KeyPoints: domain.NonNil(c.KeyPoints),
		FollowUpKeyPoints: c.FollowUpKeyPoints, LegalBases: domain.NonNil(c.LegalBases), Status: string(c.Status), Demo: c.Demo}
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

// csvOptional are columns a CSV file written before they existed lacks.
var csvOptional = []string{"difficulty", "followUpKeyPoints"}

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

// The demo bank's editions, recorded in meta once loaded. The second,
// third, fourth and fifth editions' value is the time they were loaded (RFC 3339), so that a
// later edition can tell the cases nobody touched since.
const (
	demoBankFirstEdition  = "demo_bank_v1"
	demoBankSecondEdition = "demo_bank_v2"
	demoBankThirdEdition  = "demo_bank_v3"
	demoBankFourthEdition = "demo_bank_v4"
	demoBankFifthEdition  = "demo_bank_v5"
)

// ImportDemoBank loads the bundled demo cases once per installation, so a
// fresh install can be used at once and tutors' later edits are kept. An
// installation that loaded an earlier edition gets the current one: its
// new cases are added, and an earlier case is replaced (under its new
// title, if it has one) only while it is untouched: still demo content,
// never reviewed, never edited since it was loaded (see untouchedSince).
// Cases a tutor wrote, edited or reviewed are left alone.
//
// Several instances may start at once on an empty store: the check of the
// marker, the cases and the marker itself are one transaction, so exactly
// one of them loads the bank. The others' transactions conflict with it
// (Firestore runs them again and they find the marker; PostgreSQL refuses
// their first case as a duplicate title) and they load nothing.
func (s *Service) ImportDemoBank(ctx context.Context) (ImportResult, error) {
	if _, err := s.store.GetMeta(ctx, demoBankFifthEdition); err == nil {
		return ImportResult{}, nil
	} else if !errors.Is(err, domain.ErrNotFound) {
		return ImportResult{}, err
	}
	untouched, upgrade, err := s.demoUpgradeRule(ctx)
	if err != nil {
		return ImportResult{}, err
	}
	rows, lines, err := decodeJSON(bytes.NewReader(demo.Derecho), DefaultImportMaxRows)
	if err != nil {
		return ImportResult{}, fmt.Errorf("demo bank: %w", err)
	}
	degrees, err := s.store.ListDegrees(ctx)
	if err != nil {
		return ImportResult{}, err
	}
	// The bank's degree by its name: the seed's ID here, another one in a
	// store that came from the earlier app (docs/moving-in.md).
	degreeID := store.SeedDegree.ID
	if len(rows) > 0 {
		if d, ok := degreeNamed(degrees, rows[0].Degree); ok {
			degreeID = d.ID
		}
	}
	var keep []ExchangeCase
	var keepLines []int
	replace := map[int]string{} // position in keep -> the case it replaces
	for i, r := range rows {
		title := strings.Join(strings.Fields(r.Title), " ")
		cur, err := s.store.GetCaseByTitle(ctx, degreeID, title)
		if errors.Is(err, domain.ErrNotFound) && upgrade && demo.FormerTitles[title] != "" {
			cur, err = s.store.GetCaseByTitle(ctx, degreeID, demo.FormerTitles[title])
		}
		switch {
		case errors.Is(err, domain.ErrNotFound):
		case err != nil:
			return ImportResult{}, err
		case upgrade && untouched(cur):
			replace[len(keep)] = cur.ID
		default:
			continue // a tutor's case under that title, or one they changed
		}
		keep, keepLines = append(keep, r), append(keepLines, lines[i])
	}
	marker := markerSet{key: demoBankFifthEdition, value: s.now().UTC().Format(time.RFC3339)}
	if len(keep) == 0 { // every case of the bank is a tutor's now
		return ImportResult{}, s.store.SetMeta(ctx, marker.key, marker.value)
	}
	res, err := s.importRowsReplacing(ctx, degrees, keep, keepLines, replace, &marker)
	if errors.Is(err, domain.ErrConflict) {
		// Another instance was loading the bank at the same moment.
		if _, merr := s.store.GetMeta(ctx, demoBankFifthEdition); merr == nil {
			return ImportResult{}, nil
		}
	}
	if err != nil {
		return res, fmt.Errorf("demo bank: %w", err)
	}
	return res, nil
}

// demoUpgradeRule says whether an earlier edition is loaded and, if so,
// which of its cases are still as it shipped them. After the second
// edition or later, that is a demo case never reviewed and not edited
// since the latest edition was loaded; after the first only, never edited
// at all.
func (s *Service) demoUpgradeRule(ctx context.Context) (untouched func(domain.Case) bool, upgrade bool, err error) {
	for _, edition := range []string{demoBankFourthEdition, demoBankThirdEdition, demoBankSecondEdition} {
		v, err := s.store.GetMeta(ctx, edition)
		if errors.Is(err, domain.ErrNotFound) {
			continue
		} else if err != nil {
			return nil, false, err
		}
		if loaded, perr := time.Parse(time.RFC3339, v); perr == nil {
			return func(c domain.Case) bool { return untouchedSince(c, loaded) }, true, nil
		}
		return untouchedDemo, true, nil // an unreadable time: only cases never edited
	}
	if _, err := s.store.GetMeta(ctx, demoBankFirstEdition); err == nil {
		return untouchedDemo, true, nil
	} else if !errors.Is(err, domain.ErrNotFound) {
		return nil, false, err
	}
	return untouchedDemo, false, nil
}

// untouchedDemo: a demo case as the bank shipped it.
func untouchedDemo(c domain.Case) bool {
	return c.Demo && c.Review == nil && c.UpdatedAt.Equal(c.CreatedAt)
}

// untouchedSince: a demo case nobody edited after an edition was loaded
// at loaded. The load's cases carry the time of their own transaction,
// a moment after the marker's time (which is also cut to the second), so
// edits within a minute of the load count as the load itself.
func untouchedSince(c domain.Case, loaded time.Time) bool {
	return untouchedDemo(c) || (c.Demo && c.Review == nil && !c.UpdatedAt.After(loaded.Add(time.Minute)))
}

func (s *Service) importRows(ctx context.Context, rows []ExchangeCase, lines []int) (ImportResult, error) {
	if len(rows) == 0 {
		return ImportResult{}, importError(ImportProblem{Message: "El archivo no tiene casos."})
	}
	degrees, err := s.store.ListDegrees(ctx)
	if err != nil {
		return ImportResult{}, err
	}
	return s.importRowsReplacing(ctx, degrees, rows, lines, nil, nil)
}

// markerSet is a meta key an import checks and sets in its transaction:
// when the key is set already, the import does nothing (another instance
// did it).
type markerSet struct{ key, value string }

// importRowsReplacing creates or updates the rows' cases (at least one),
// matched by degree (among degrees, the store's) and title, except rows
// listed in replace (position -> case id), which
// update that case whatever its title. With a marker, it does so only
// when the marker is not set, in the same transaction, which also sets it,
// and it leaves a case found under a row's title that replace does not
// name alone instead of updating it.
func (s *Service) importRowsReplacing(ctx context.Context, degrees []domain.Degree, rows []ExchangeCase, lines []int, replace map[int]string, marker *markerSet) (ImportResult, error) {
	degreeByName := make(map[string]string, len(degrees))
	for _, d := range degrees {
		degreeByName[domain.FoldName(d.Nombre)] = d.ID
	}
	var problems importProblems
	cases := make([]domain.Case, len(rows))
	seen := map[string]int{}
rows:
	for i, r := range rows {
		row := lines[i]
		c := r.Case()
		c.Normalize()
		if c.Difficulty == "" {
			c.Difficulty = domain.DefaultDifficulty // an existing case keeps its own (below)
		}
		found := []ImportProblem{}
		if id, ok := degreeByName[domain.FoldName(r.Degree)]; ok {
			c.DegreeID = id
		} else {
			found = append(found, ImportProblem{Row: row, Column: "degree", Message: fmt.Sprintf("La carrera «%s» no existe.", domain.Shorten(r.Degree))})
		}
		for _, p := range append(c.Validate(), checkNorms(&c)...) {
			found = append(found, ImportProblem{Row: row, Column: p.Field, Message: p.Message})
		}
		key := c.DegreeID + "\x00" + domain.FoldName(c.Title)
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
	err := s.store.InTx(ctx, func(tx store.Store) error {
		res = ImportResult{}
		if marker != nil {
			if _, err := tx.GetMeta(ctx, marker.key); err == nil {
				return nil // loaded already (by another instance)
			} else if !errors.Is(err, domain.ErrNotFound) {
				return err
			}
		}
		grown := map[string]bool{} // degrees that got new cases
		for i, c := range cases {
			var cur domain.Case
			var err error
			id, replacing := replace[i]
			if replacing {
				cur, err = tx.GetCase(ctx, id)
			} else {
				cur, err = tx.GetCaseByTitle(ctx, c.DegreeID, c.Title)
			}
			switch {
			case err == nil && marker != nil && !replacing:
				// A tutor's case under the same title stays as it is.
			case errors.Is(err, domain.ErrNotFound):
				c.ID, c.CreatedAt, c.UpdatedAt = domain.NewID(), now, now
				if err := tx.CreateCase(ctx, c); err != nil {
					return err
				}
				res.Created++
				grown[c.DegreeID] = true
			case err != nil:
				return err
			default:
				c.ID, c.CreatedAt, c.UpdatedAt = cur.ID, cur.CreatedAt, now
				keepUnsaid(&c, rows[i], cur)
				if err := tx.UpdateCase(ctx, c); err != nil {
					return err
				}
				res.Updated++
			}
		}
		for degree := range grown {
			if err := s.checkBankRoom(ctx, tx, degree, 0); err != nil {
				return err
			}
		}
		if marker != nil {
			return tx.SetMeta(ctx, marker.key, marker.value)
		}
		return nil
	})
	return res, err
}

// keepUnsaid carries over to an updated case what an older file cannot
// say: its difficulty, the links between tribunal questions and key points
// (while they still fit the new lists), the descriptions of legal bases
// the file lists without one, and the review mark (unless the file makes
// the case demo content again).
func keepUnsaid(c *domain.Case, row ExchangeCase, cur domain.Case) {
	if strings.TrimSpace(row.Difficulty) == "" && cur.Difficulty != "" {
		c.Difficulty = cur.Difficulty
	}
	if row.FollowUpKeyPoints == nil && len(cur.FollowUpKeyPoints) == len(c.FollowUps) {
		fits := true
		for _, k := range cur.FollowUpKeyPoints {
			fits = fits && k >= 0 && k <= len(c.KeyPoints)
		}
		if fits {
			c.FollowUpKeyPoints = cur.FollowUpKeyPoints
		}
	}
	notes := map[domain.LegalBase]string{}
	for _, b := range cur.LegalBases {
		notes[domain.LegalBase{Norm: b.Norm, Article: b.Article}] = b.Note
	}
	for i, b := range c.LegalBases {
		if b.Note == "" {
			c.LegalBases[i].Note = notes[domain.LegalBase{Norm: b.Norm, Article: b.Article}]
		}
	}
	c.Review = keptReview(cur.Review, c.Demo)
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
			if i, ok := col[name]; ok && i < len(rec) {
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
			Status: strings.TrimSpace(get("status")), Difficulty: strings.TrimSpace(get("difficulty"))}
		var found []ImportProblem
		if _, ok := col["followUpKeyPoints"]; ok {
			ex.FollowUpKeyPoints = []int{}
			for _, l := range splitLines(get("followUpKeyPoints")) {
				n, err := strconv.Atoi(l)
				if err != nil {
					found = append(found, ImportProblem{Row: line, Column: "followUpKeyPoints", Message: fmt.Sprintf("«%s» no es el número de un punto clave.", l)})
					continue
				}
				ex.FollowUpKeyPoints = append(ex.FollowUpKeyPoints, n)
			}
		}
		switch strings.ToLower(strings.TrimSpace(get("demo"))) {
		case "true", "1", "sí", "si":
			ex.Demo = true
		case "false", "0", "no", "":
		default:
			found = append(found, ImportProblem{Row: line, Column: "demo", Message: "demo debe ser true o false."})
		}
		for _, l := range splitLines(get("legalBases")) {
			n, rest, ok := strings.Cut(l, ":")
			if !ok {
				found = append(found, ImportProblem{Row: line, Column: "legalBases", Message: fmt.Sprintf("«%s» debe tener la forma «Norma: artículo».", domain.Shorten(l))})
				continue
			}
			a, note, _ := strings.Cut(rest, "|")
			ex.LegalBases = append(ex.LegalBases, domain.LegalBase{Norm: strings.TrimSpace(n), Article: strings.TrimSpace(a), Note: strings.TrimSpace(note)})
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
		out[i] = exchangeCaseOf(c, names[c.DegreeID])
	}
	return out, nil
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
	if err := cw.Write(append(slices.Clone(csvHeader), csvOptional...)); err != nil {
		return err
	}
	for _, c := range cases {
		bases := make([]string, len(c.LegalBases))
		for i, b := range c.LegalBases {
			bases[i] = b.String()
			if b.Note != "" {
				bases[i] += " | " + b.Note
			}
		}
		links := make([]string, len(c.FollowUpKeyPoints))
		for i, k := range c.FollowUpKeyPoints {
			links[i] = strconv.Itoa(k)
		}
		rec := []string{c.Degree, c.Area, c.Title, c.Facts, strings.Join(c.Questions, "\n"), strings.Join(c.FollowUps, "\n"),
			strings.Join(c.KeyPoints, "\n"), strings.Join(bases, "\n"), c.Status, fmt.Sprint(c.Demo), c.Difficulty, strings.Join(links, "\n")}
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
