// Package roster reads a tutor's student roster (CSV or Excel .xlsx) and
// validates it, reporting every problem in Spanish with the row and column a
// spreadsheet user can find.
//
// The result is all or nothing: either every row is valid and is returned, or
// an *Error lists what to fix. A roster half loaded would leave students
// silently missing from an exam.
//
// Columns are found by their header in the first non-blank row, in any order
// and in Spanish or English, ignoring case, accents and spacing. All six
// columns must be there: correo (email), nombre (name), carrera (degree),
// departamento (department), facultad (faculty) and modalidad (modality); a
// file without one of them is not the roster the tutor meant to upload.
// Every row needs a valid email and a degree; the other values may be empty
// (a name is replaced by the profile's once the student signs in, and the
// group takes its department, faculty and modality from the first row that
// has them). Other columns are ignored. Every value has a length cap
// (MaxNameLength, MaxFieldLength), and a workbook may hold data only up to
// column MaxColumns.
package roster

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/utpl/simulador/backend/internal/domain"
)

const (
	// MaxBytes is the largest file accepted (2 MB).
	MaxBytes = 2 << 20
	// MaxRows is the largest number of students (non-blank data rows).
	MaxRows = 5000
	// MaxProblems is how many problems are reported before giving up; a
	// final Problem then says that more exist.
	MaxProblems = 20
	// MaxNameLength caps a student's name, in characters.
	MaxNameLength = 200
	// MaxFieldLength caps the degree, department, faculty and modality.
	MaxFieldLength = 120
)

// Messages shown to the tutor (es-EC).
const (
	msgTooLarge    = "El archivo supera el límite de 2 MB."
	msgTooManyRows = "El archivo tiene más de 5000 filas."
	msgNoStudents  = "El archivo no tiene estudiantes."
	msgMore        = "Hay más errores; corrija los anteriores y vuelva a cargar el archivo."
	msgBadXLSX     = "No se pudo leer el archivo Excel (.xlsx)."
	msgBadXLS      = "Los archivos .xls (Excel 97-2003) no son compatibles; guarde el archivo como .xlsx o .csv."
	msgBadFormat   = "Formato de archivo no admitido; use un archivo .csv o .xlsx."
)

// Row is one student as read from the file.
type Row struct {
	// Line is the 1-based row number as a spreadsheet shows it: the header
	// is usually row 1, blank rows count, and a CSV record whose quoted
	// field spans several lines is a single row.
	Line                                               int
	Email, Name, Degree, Department, Faculty, Modality string
}

// Problem is one thing the tutor must fix in the file.
type Problem struct {
	// Row is the spreadsheet row number; 0 means the whole file.
	Row int `json:"row"`
	// Column is the header as the user wrote it, the canonical Spanish name
	// when the column is missing, or "" when no column applies.
	Column  string `json:"column"`
	Message string `json:"message"`
}

// String renders the problem as one Spanish sentence.
func (p Problem) String() string {
	switch {
	case p.Row > 0 && p.Column != "":
		return fmt.Sprintf("Fila %d, columna «%s»: %s", p.Row, p.Column, p.Message)
	case p.Row > 0:
		return fmt.Sprintf("Fila %d: %s", p.Row, p.Message)
	case p.Column != "" && !strings.Contains(p.Message, "«"+p.Column+"»"):
		return fmt.Sprintf("Columna «%s»: %s", p.Column, p.Message)
	}
	return p.Message
}

// Error is a roster that cannot be loaded. Problems holds at most
// MaxProblems entries plus, when more were found, a final one saying so.
type Error struct {
	Problems []Problem
}

// NewError builds an Error, so that callers can report problems found later
// (for example degrees unknown to the database) the same way.
func NewError(problems ...Problem) *Error {
	return &Error{Problems: problems}
}

// errorShown is how many problems Error() spells out; the full list is in
// Problems, for the UI to show as a table.
const errorShown = 3

func (e *Error) Error() string {
	if len(e.Problems) == 0 {
		return "El archivo no es válido."
	}
	var b strings.Builder
	for i, p := range e.Problems {
		if i == errorShown {
			rest := len(e.Problems) - errorShown
			if e.Problems[len(e.Problems)-1].Message == msgMore {
				fmt.Fprintf(&b, " (y más de %d problemas adicionales)", rest-1)
			} else {
				fmt.Fprintf(&b, " (y %d problemas adicionales)", rest)
			}
			break
		}
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// fileError is an Error about the file as a whole.
func fileError(msg string) *Error {
	return NewError(Problem{Message: msg})
}

// Parse reads a roster, choosing the format by the file name's extension.
//
// The error is an *Error for anything wrong with the file itself; only a
// failure of r (other than *http.MaxBytesError) is returned as is.
func Parse(r io.Reader, filename string) ([]Row, error) {
	return ParseChecked(r, filename, nil)
}

// DegreeCheck judges a row's degree against what only the caller knows (the
// degrees in the database, the group's degree). It is called once per row
// whose degree is not empty, in row order, and returns "" when the degree is
// acceptable or else the Spanish message to report.
type DegreeCheck func(degree string) string

// ParseChecked is Parse with check's verdicts reported at each row's degree
// column, in the same list and under the same cap as the file's own
// problems, so one upload tells the tutor everything to fix.
func ParseChecked(r io.Reader, filename string, check DegreeCheck) ([]Row, error) {
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".csv":
		return parseCSV(r, check)
	case ".xlsx":
		return parseXLSXReader(r, check)
	case ".xls":
		return nil, fileError(msgBadXLS)
	default:
		return nil, fileError(msgBadFormat)
	}
}

// readLimited reads the whole file but never more than MaxBytes+1 bytes, so
// an oversized upload costs at most that much memory.
func readLimited(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		// The HTTP layer may already cap the body; say it in the same words.
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, fileError(msgTooLarge)
		}
		return nil, fmt.Errorf("roster: reading the file: %w", err)
	}
	if len(data) > MaxBytes {
		return nil, fileError(msgTooLarge)
	}
	return data, nil
}

// column identifies one of the fields a roster carries.
type column int

const (
	colEmail column = iota
	colName
	colDegree
	colDepartment
	colFaculty
	colModality
	numColumns
)

// spanishNames name the columns in messages about a missing column.
var spanishNames = [numColumns]string{"correo", "nombre", "carrera", "departamento", "facultad", "modalidad"}

// required columns must be present in the header: all of them.
var required = []column{colEmail, colName, colDegree, colDepartment, colFaculty, colModality}

// headerAliases maps a header, normalised by headerKey, to its column.
var headerAliases = func() map[string]column {
	m := make(map[string]column)
	add := func(c column, names ...string) {
		for _, n := range names {
			m[headerKey(n)] = c
		}
	}
	add(colEmail, "email", "correo", "correo electrónico", "email institucional", "correo institucional")
	add(colName, "name", "full name", "nombre", "nombres", "nombre completo", "nombres completos",
		"nombres y apellidos", "apellidos y nombres")
	add(colDegree, "degree", "carrera")
	add(colDepartment, "department", "departamento")
	add(colFaculty, "faculty", "facultad")
	add(colModality, "modality", "modalidad")
	return m
}()

// headerKey folds a header so that case, accents, spacing, a BOM and the
// usual separators in "e-mail" or "correo_electronico" do not matter.
func headerKey(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r), unicode.Is(unicode.Cf, r), unicode.IsSpace(r),
			r == '-', r == '_', r == '.':
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// header is where each column is in the file and what the user called it.
type header struct {
	index [numColumns]int
	name  [numColumns]string
}

// readHeader maps the header row's cells to columns. It returns the problems
// with the header (repeated or missing columns) and how many required
// columns it has, which ranks sheets in a workbook.
func readHeader(line int, cells []string) (h header, problems []Problem, found int) {
	for c := range h.index {
		h.index[c] = -1
	}
	for i, cell := range cells {
		text := clean(cell)
		c, ok := headerAliases[headerKey(text)]
		if !ok {
			continue // extra columns are the tutor's own business
		}
		if h.index[c] >= 0 {
			msg := fmt.Sprintf("La columna «%s» está repetida.", text)
			if h.name[c] != text {
				msg = fmt.Sprintf("Las columnas «%s» y «%s» son la misma; deje solo una.", h.name[c], text)
			}
			problems = append(problems, Problem{Row: line, Column: text, Message: msg})
			continue
		}
		h.index[c], h.name[c] = i, text
	}
	for _, c := range required {
		if h.index[c] < 0 {
			problems = append(problems, Problem{Column: spanishNames[c],
				Message: fmt.Sprintf("Falta la columna «%s».", spanishNames[c])})
		} else {
			found++
		}
	}
	return h, problems, found
}

// cell returns column c of a data row, cleaned, or "" when the row is short.
func (h *header) cell(cells []string, c column) string {
	if i := h.index[c]; i >= 0 && i < len(cells) {
		return clean(cells[i])
	}
	return ""
}

// nextRowFunc yields the file's rows in order with their spreadsheet row
// numbers. It returns io.EOF at the end; any other error is an *Error.
type nextRowFunc func() (line int, cells []string, err error)

// firstNonBlank skips blank rows; the first row with content is the header.
func firstNonBlank(next nextRowFunc) (int, []string, error) {
	for {
		line, cells, err := next()
		if err != nil || !blank(cells) {
			return line, cells, err
		}
	}
}

// problems collects Problems up to MaxProblems.
type problems []Problem

// add records p and reports whether reading should stop because the cap
// was passed, in which case the final "more errors" Problem is added.
func (ps *problems) add(p Problem) (full bool) {
	if len(*ps) == MaxProblems {
		*ps = append(*ps, Problem{Message: msgMore})
		return true
	}
	*ps = append(*ps, p)
	return false
}

// addAll adds each of list until the cap is passed.
func (ps *problems) addAll(list []Problem) (full bool) {
	for _, p := range list {
		if ps.add(p) {
			return true
		}
	}
	return false
}

// parseRows reads and validates a whole roster from next, whatever the
// file's format; check, when not nil, judges each row's degree.
func parseRows(next nextRowFunc, check DegreeCheck) ([]Row, error) {
	line, cells, err := firstNonBlank(next)
	if err == io.EOF {
		return nil, fileError(msgNoStudents)
	}
	if err != nil {
		return nil, err
	}
	h, headerProblems, _ := readHeader(line, cells)
	if len(headerProblems) > 0 {
		// Without the right columns every row would be wrong; say only why.
		var found problems
		found.addAll(headerProblems)
		return nil, NewError(found...)
	}

	var (
		rows  []Row
		found problems
		seen  = make(map[string]int) // email -> row where it first appears
	)
	for {
		line, cells, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				return nil, err
			}
			// A row that cannot be read ends the file, but whatever was
			// found before it is still worth reporting.
			found.addAll(e.Problems)
			return nil, NewError(found...)
		}
		if blank(cells) {
			continue
		}
		if len(rows) == MaxRows {
			return nil, fileError(msgTooManyRows)
		}
		row := Row{
			Line:       line,
			Name:       h.cell(cells, colName),
			Degree:     h.cell(cells, colDegree),
			Department: h.cell(cells, colDepartment),
			Faculty:    h.cell(cells, colFaculty),
			Modality:   h.cell(cells, colModality),
		}
		written := h.cell(cells, colEmail)
		row.Email = domain.NormalizeEmail(written)
		rows = append(rows, row)

		var rowProblems []Problem
		emailAt := func(msg string) {
			rowProblems = append(rowProblems, Problem{Row: line, Column: h.name[colEmail], Message: msg})
		}
		switch {
		case row.Email == "":
			emailAt("El correo está vacío.")
		case !validEmail(row.Email):
			emailAt(fmt.Sprintf("El correo «%s» no es válido.", shorten(written)))
		default:
			if first, ok := seen[row.Email]; ok {
				emailAt(fmt.Sprintf("El correo «%s» está repetido (ya aparece en la fila %d).", shorten(written), first))
			} else {
				seen[row.Email] = line
			}
		}
		degreeTooLong := false
		for _, f := range []struct {
			c     column
			value string
			max   int
			what  string
		}{
			{colName, row.Name, MaxNameLength, "El nombre"},
			{colDegree, row.Degree, MaxFieldLength, "La carrera"},
			{colDepartment, row.Department, MaxFieldLength, "El departamento"},
			{colFaculty, row.Faculty, MaxFieldLength, "La facultad"},
			{colModality, row.Modality, MaxFieldLength, "La modalidad"},
		} {
			if utf8.RuneCountInString(f.value) > f.max {
				rowProblems = append(rowProblems, Problem{Row: line, Column: h.name[f.c],
					Message: fmt.Sprintf("%s supera los %d caracteres.", f.what, f.max)})
				degreeTooLong = degreeTooLong || f.c == colDegree
			}
		}
		if row.Degree == "" {
			rowProblems = append(rowProblems, Problem{Row: line, Column: h.name[colDegree], Message: "La carrera está vacía."})
		} else if check != nil && !degreeTooLong {
			if msg := check(row.Degree); msg != "" {
				rowProblems = append(rowProblems, Problem{Row: line, Column: h.name[colDegree], Message: msg})
			}
		}
		if found.addAll(rowProblems) {
			return nil, NewError(found...)
		}
	}
	if len(found) > 0 {
		return nil, NewError(found...)
	}
	if len(rows) == 0 {
		return nil, fileError(msgNoStudents)
	}
	return rows, nil
}

// maxEmailLen is the longest address SMTP can carry (RFC 5321 path limit).
const maxEmailLen = 254

// validEmail accepts a bare address such as ana.perez@utpl.edu.ec: no
// display name or angle brackets, one @, and a dotted domain, which
// net/mail alone would not insist on.
func validEmail(s string) bool {
	if len(s) > maxEmailLen || strings.Count(s, "@") != 1 {
		return false
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Name != "" || addr.Address != s {
		return false
	}
	domain := s[strings.IndexByte(s, '@')+1:]
	return strings.Contains(domain, ".") && !strings.HasPrefix(domain, "[")
}

// blank reports whether a row has no content, such as the ";;;;" lines
// Excel writes for empty rows.
func blank(cells []string) bool {
	for _, c := range cells {
		if clean(c) != "" {
			return false
		}
	}
	return true
}

// clean trims a value and collapses inner whitespace. Accents are kept but
// put in NFC, so that "José" typed on a Mac compares equal to the database's.
// Invisible format characters (a stray BOM, zero-width spaces pasted from the
// web) are dropped.
func clean(s string) string {
	if isPlainASCII(s) {
		return s // the common case: nothing to do, nothing to allocate
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = norm.NFC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
		case unicode.Is(unicode.Cf, r):
		default:
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isPlainASCII reports whether s is printable ASCII with single inner spaces
// and none at the ends, i.e. already clean.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			return false
		}
		if c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' ') {
			return false
		}
	}
	return true
}

// maxShown caps how much of a user's value is echoed in a message, so a
// pasted paragraph does not flood the error list.
const maxShown = 80

func shorten(s string) string {
	if utf8.RuneCountInString(s) <= maxShown {
		return s
	}
	r := []rune(s)
	return string(r[:maxShown]) + "…"
}
