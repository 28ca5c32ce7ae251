package roster

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/utpl/simulador/backend/internal/sheetcsv"
)

const (
	msgBadEncoding = "No se pudo leer el archivo: la codificación del texto no es válida."
	msgNotText     = "El archivo no es un CSV de texto."
	msgXLSXAsCSV   = "El archivo parece ser un Excel (.xlsx), no un CSV; cárguelo con la extensión .xlsx."
)

// ParseCSV reads a roster saved as CSV: separated by commas, semicolons (as
// Excel writes it in Spanish locales) or tabs, in UTF-8 with or without BOM,
// UTF-16 with BOM (Excel's "Texto Unicode") or Windows-1252 (Excel's
// "CSV (delimitado por comas)" on Windows).
func ParseCSV(r io.Reader) ([]Row, error) {
	return parseCSV(r, nil)
}

func parseCSV(r io.Reader, check DegreeCheck) ([]Row, error) {
	data, err := readLimited(r)
	if err != nil {
		return nil, err
	}
	text, err := decodeText(data)
	if err != nil {
		return nil, err
	}
	text, sep := separator(text)
	return parseRows(csvRows(text, sep), check)
}

// separator honours the "sep=;" first line that Excel writes and reads to
// name the separator, and removes it: Excel does not show it as a row, so
// row numbers must not count it either. Without it the separator is guessed.
func separator(text string) (string, rune) {
	line, rest, _ := strings.Cut(text, "\n")
	line = strings.TrimSuffix(line, "\r")
	if len(line) == len("sep=;") && strings.EqualFold(line[:4], "sep=") && strings.ContainsRune(",;\t|", rune(line[4])) {
		return rest, rune(line[4])
	}
	return text, detectSeparator(text)
}

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
	zipMagic   = []byte("PK\x03\x04")
)

// decodeText turns the file's bytes into UTF-8 text without a BOM.
func decodeText(data []byte) (string, error) {
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		// The BOM promises UTF-8; a stray invalid byte is shown as �
		// rather than re-reading the whole file as Windows-1252.
		return strings.ToValidUTF8(string(data[len(bomUTF8):]), "\uFFFD"), nil
	case bytes.HasPrefix(data, bomUTF16LE), bytes.HasPrefix(data, bomUTF16BE):
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		out, err := dec.Bytes(data)
		if err != nil {
			return "", fileError(msgBadEncoding)
		}
		return string(out), nil
	case bytes.HasPrefix(data, zipMagic):
		return "", fileError(msgXLSXAsCSV)
	case bytes.IndexByte(data, 0) >= 0:
		// Text never holds NUL bytes; this is some binary file renamed.
		return "", fileError(msgNotText)
	case utf8.Valid(data):
		return string(data), nil
	}
	// Not UTF-8: assume Excel on Windows, whose ANSI code page in Spanish
	// locales is Windows-1252. Every byte decodes, so this cannot fail.
	out, err := charmap.Windows1252.NewDecoder().Bytes(data)
	if err != nil {
		return "", fileError(msgBadEncoding)
	}
	return string(out), nil
}

// detectSeparator picks the separator used in the header, the first line
// with content: whichever of ; , and tab appears most often outside quotes.
// Lines of only separators (Excel's blank rows) are skipped. A one-column
// file has none, and then the choice does not matter.
func detectSeparator(text string) rune {
	seps := [...]rune{';', ',', '\t'}
	var counts, total [len(seps)]int
	inQuotes, content := false, false
	for _, r := range text {
		switch {
		case r == '"':
			inQuotes = !inQuotes
			content = true
		case inQuotes:
		case r == '\n':
			if content {
				goto done
			}
			for i := range counts {
				total[i] += counts[i]
			}
			counts = [len(seps)]int{}
		case r == ';':
			counts[0]++
		case r == ',':
			counts[1]++
		case r == '\t':
			counts[2]++
		case r == ' ', r == '\r', r == '\uFEFF':
		default:
			content = true
		}
	}
	// No line with content: a file of blank rows. Use what separators
	// there are, so that ";;" still splits into empty cells.
	for i := range counts {
		counts[i] += total[i]
	}
done:
	best := 0
	for i := range seps {
		if counts[i] > counts[best] {
			best = i
		}
	}
	if counts[best] == 0 {
		return ','
	}
	return seps[best]
}

// csvRows yields the records of text with the row numbers a spreadsheet
// would show; a record that cannot be read is a row problem.
func csvRows(text string, sep rune) nextRowFunc {
	next := sheetcsv.Rows(text, sep)
	return func() (int, []string, error) {
		row, rec, err := next()
		var se *sheetcsv.SyntaxError
		if errors.As(err, &se) {
			return 0, nil, NewError(Problem{Row: se.Row, Message: csvMessage(se.Err)})
		}
		return row, rec, err
	}
}

// csvMessage explains an encoding/csv error in Spanish.
func csvMessage(err error) string {
	switch {
	case errors.Is(err, csv.ErrQuote):
		return `No se pudo leer la fila: hay comillas (") sin cerrar o de más en un campo entre comillas.`
	case errors.Is(err, csv.ErrBareQuote):
		return `No se pudo leer la fila: hay comillas (") dentro de un campo que no está entre comillas; encierre el campo entre comillas y duplique las interiores ("").`
	}
	return "No se pudo leer la fila."
}
